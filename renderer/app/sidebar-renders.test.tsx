// The sidebar redraws only what changed: a fleet cut at once sends an update per environment and
// retry, and a list redrawn whole for each of them (and each second for every countdown) kept the
// renderer busy for hundreds of milliseconds at a time (issue #22). Renders are counted through
// linkStatus, which each row's indicator and marker call as they render.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import type { EnvironmentView } from '../../shared/ipc';
import { useEnvironments } from '../environments/environments-store';
import { makeEnv } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { Sidebar } from './sidebar';
import type * as LinkStatusModule from '../health/link-status';
import type * as LinkEncryptionModule from '../../shared/link-encryption';

const renderedEnvIds = vi.hoisted(() => [] as string[]);
vi.mock('../health/link-status', async (importOriginal) => {
  const real = await importOriginal<typeof LinkStatusModule>();
  return {
    ...real,
    linkStatus: (env: EnvironmentView, now: number, hostLost?: boolean) => {
      renderedEnvIds.push(env.id);
      return real.linkStatus(env, now, hostLost);
    },
  };
});

const parsedUrls = vi.hoisted(() => [] as string[]);
vi.mock('../../shared/link-encryption', async (importOriginal) => {
  const real = await importOriginal<typeof LinkEncryptionModule>();
  return {
    ...real,
    isUnencryptedRemoteUrl: (url: string) => {
      parsedUrls.push(url);
      return real.isUnencryptedRemoteUrl(url);
    },
  };
});

const rendersOf = (id: string) => renderedEnvIds.filter((x) => x === id).length;

beforeEach(() => {
  withFreshBridge();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('Sidebar rows', () => {
  it("redraw only the environment that changed, not the others' rows", () => {
    const a = makeEnv({ id: 'env-a', name: 'A' });
    const b = makeEnv({ id: 'env-b', name: 'B' });
    useEnvironments.getState().setAll([a, b]);
    render(<Sidebar />);
    expect(rendersOf('env-a')).toBeGreaterThan(0);
    renderedEnvIds.length = 0;

    act(() => useEnvironments.getState().upsert({ ...b, health: { ...b.health!, lastRttMs: 9 } }));
    expect(screen.getByRole('img', { name: 'Connection: connected, 9 ms' })).toBeTruthy();
    expect(rendersOf('env-b')).toBeGreaterThan(0);
    expect(rendersOf('env-a')).toBe(0);
  });

  it('tick each second only where a countdown shows', () => {
    vi.useFakeTimers();
    const a = makeEnv({ id: 'env-a', name: 'A' });
    const b = makeEnv({
      id: 'env-b',
      name: 'B',
      link: { kind: 'reconnecting', since: Date.now(), attempt: 3, nextRetryAt: Date.now() + 5_000 },
    });
    useEnvironments.getState().setAll([a, b]);
    render(<Sidebar />);
    expect(screen.getByRole('img', { name: 'Connection: reconnecting in 5 s (attempt 3)' })).toBeTruthy();
    renderedEnvIds.length = 0;

    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByRole('img', { name: 'Connection: reconnecting in 4 s (attempt 3)' })).toBeTruthy();
    expect(rendersOf('env-a')).toBe(0);
    // Of B's row, only the indicator: its marker and the row say the kind of link, which stays.
    expect(rendersOf('env-b')).toBe(1);
  });

  it("parse an environment's URL once, not again for each change of its link", () => {
    const a = makeEnv({ id: 'env-a', name: 'A' });
    useEnvironments.getState().setAll([a]);
    render(<Sidebar />);
    parsedUrls.length = 0;
    // As from the host: each change a new view, its settings a new object with the same URL.
    act(() =>
      useEnvironments
        .getState()
        .upsert({ ...a, settings: { ...a.settings }, health: { ...a.health!, lastRttMs: 9 } }),
    );
    expect(screen.getByRole('img', { name: 'Connection: connected, 9 ms' })).toBeTruthy();
    expect(parsedUrls).toEqual([]);
  });
});
