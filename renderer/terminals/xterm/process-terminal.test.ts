import { beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { setBridge } from '../../ipc/ipc-client';
import { DEFAULT_SETTINGS } from '../../settings/settings-store';
import { FakeBridge } from '../../test/fake-bridge';
import { PASTE_CHUNK_CHARS } from './flow-limits';
import { ProcessTerminal } from './process-terminal';

let bridge: FakeBridge;
let release: (() => void)[];

beforeEach(() => {
  release = [];
  // Each write stays in flight until the test releases it, like a slow link.
  bridge = new FakeBridge().handle(
    'processes.write',
    () => new Promise((resolve) => release.push(() => resolve({ ok: true }))),
  );
  setBridge(bridge);
});

const writes = () => bridge.callsOf('processes.write').map((w) => w.data);

describe('ProcessTerminal input', () => {
  it('sends keystrokes at once without waiting for earlier writes', () => {
    const view = new ProcessTerminal({ envId: 'e', processId: 'p' }, DEFAULT_SETTINGS);
    view.terminal.input('l', true);
    view.terminal.input('s', true);
    expect(writes()).toEqual(['l', 's']);
    view.dispose();
  });

  it('pastes large text in awaited chunks, keeps later keys after it, and lets Ctrl-C cut in', async () => {
    const view = new ProcessTerminal({ envId: 'e', processId: 'p' }, DEFAULT_SETTINGS);
    const big = 'x'.repeat(PASTE_CHUNK_CHARS * 3);
    view.terminal.input(big, true);
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toHaveLength(PASTE_CHUNK_CHARS);
    view.terminal.input('y', true);
    release.shift()?.();
    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(writes()[1]).toHaveLength(PASTE_CHUNK_CHARS);

    view.terminal.input('\x03', true);
    expect(writes()[2]).toBe('\x03');
    release.splice(0).forEach((r) => r());
    await waitFor(() => expect(writes()).toContain('y'));
    // The rest of the paste was abandoned; the key typed after it still went out, in order.
    expect(writes()).toEqual([big.slice(0, PASTE_CHUNK_CHARS), big.slice(0, PASTE_CHUNK_CHARS), '\x03', 'y']);
    view.dispose();
  });
});
