import { afterEach, describe, expect, it } from 'vitest';
import { IpcError, type PreloadBridge } from '../../shared/ipc';
import { resolveBridge } from './resolve-bridge';

type Fake = PreloadBridge & { listeners: Map<string, (payload: unknown) => void> };

function fakePreload(answers: Record<string, unknown>): Fake {
  const listeners = new Map<string, (payload: unknown) => void>();
  return {
    listeners,
    invoke: async (name) => answers[name] as never,
    on: (name, listener) => {
      listeners.set(name, listener as (payload: unknown) => void);
      return () => listeners.delete(name);
    },
  };
}

afterEach(() => {
  delete (window as { tether?: unknown }).tether;
});

describe('resolveBridge in Electron (window.tether from the preload)', () => {
  it('hands back command output and rebuilds errors as IpcError with their code', async () => {
    (window as { tether?: unknown }).tether = fakePreload({
      'environments.list': { ok: true, output: [] },
      'environments.connect': { ok: false, error: { code: 'notFound', message: 'No environment "x".' } },
    });
    const { bridge, onStatus } = resolveBridge();
    expect(onStatus).toBeUndefined();
    expect(await bridge.invoke('environments.list', {})).toEqual([]);
    const failure = await bridge.invoke('environments.connect', { id: 'x' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(IpcError);
    expect(failure).toMatchObject({ code: 'notFound', message: 'No environment "x".' });
  });

  it('subscribes to events through the preload', () => {
    const preload = fakePreload({});
    (window as { tether?: unknown }).tether = preload;
    const seen: unknown[] = [];
    const off = resolveBridge().bridge.on('app.notice', (payload) => void seen.push(payload));
    preload.listeners.get('app.notice')?.({ level: 'info' });
    off();
    expect(seen).toEqual([{ level: 'info' }]);
    expect(preload.listeners.has('app.notice')).toBe(false);
  });
});
