import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PaneLayout } from '../../shared/ipc';
import { setBridge } from '../ipc/ipc-client';
import { envPanes, leaves, usePanes, terminalContent, processIdOf } from './panes-store';
import { FakeBridge } from '../test/fake-bridge';
import { resetStores } from '../test/reset-stores';
import { syncLayout } from './layout-sync';

const stored: PaneLayout = {
  byEnv: {
    remote: {
      tabs: [
        {
          id: 'tab-1',
          root: { type: 'leaf', id: 'pane-1', content: { kind: 'terminal', processId: 'p1' } },
          focusedPaneId: 'pane-1',
        },
      ],
      activeTabId: 'tab-1',
    },
  },
};

let bridge: FakeBridge;
let stop: (() => void) | null = null;

beforeEach(() => {
  resetStores();
  bridge = new FakeBridge().handle('layout.save', () => ({ ok: true }));
  setBridge(bridge);
});
afterEach(() => stop?.());

describe('syncLayout', () => {
  it('brings back the layout the host stored, and sends every change to it', async () => {
    bridge.handle('layout.get', () => stored);
    const synced = await syncLayout();
    stop = synced.stop;
    expect(synced.restored).toBe(true);
    expect(envPanes(usePanes.getState().byEnv, 'remote')).toEqual(stored.byEnv.remote);
    expect(bridge.callsOf('layout.save')).toEqual([]);

    usePanes.getState().openTab('remote', terminalContent('p2'));
    const saved = bridge.callsOf('layout.save').at(-1)!;
    expect(saved.byEnv.remote!.tabs.map((t) => processIdOf(leaves(t.root)[0]!))).toEqual(['p1', 'p2']);
  });

  it('starts with no panes when the host has none stored, and still saves changes', async () => {
    bridge.handle('layout.get', () => null);
    const synced = await syncLayout();
    stop = synced.stop;
    expect(synced.restored).toBe(false);
    expect(usePanes.getState().byEnv).toEqual({});
    usePanes.getState().openTab('local', terminalContent('shell'));
    expect(bridge.callsOf('layout.save')).toHaveLength(1);
  });
});
