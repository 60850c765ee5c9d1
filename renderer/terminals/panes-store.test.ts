import { beforeEach, describe, expect, it } from 'vitest';
import { envPanes, leaves, usePanes } from './panes-store';
import { resetStores } from '../test/reset-stores';

const env = () => envPanes(usePanes.getState().byEnv, 'e');

describe('panes store', () => {
  beforeEach(resetStores);

  it('opens tabs, splits a pane and collapses the split when one side closes', () => {
    const s = usePanes.getState();
    s.openTab('e', 'p1');
    const tab = env().tabs[0]!;
    s.split('e', tab.focusedPaneId, 'horizontal', 'p2');
    const split = env().tabs[0]!;
    expect(split.root.type).toBe('split');
    expect(leaves(split.root).map((l) => l.processId)).toEqual(['p1', 'p2']);
    expect(split.focusedPaneId).toBe(leaves(split.root)[1]!.id);
    s.closePane('e', leaves(split.root)[0]!.id);
    const after = env().tabs[0]!;
    expect(after.root).toMatchObject({ type: 'leaf', processId: 'p2' });
    s.closePane('e', after.root.id);
    expect(env()).toEqual({ tabs: [], activeTabId: null });
  });

  it('cycles tabs, swaps a restarted process in place and prunes processes that are gone', () => {
    const s = usePanes.getState();
    s.openTab('e', 'p1');
    s.openTab('e', 'p2');
    const [t1, t2] = env().tabs;
    expect(env().activeTabId).toBe(t2!.id);
    s.cycleTab('e', 1);
    expect(env().activeTabId).toBe(t1!.id);
    s.replaceProcess('e', 'p1', 'p9');
    expect(leaves(env().tabs[0]!.root)[0]!.processId).toBe('p9');
    s.prune('e', new Set(['p2']));
    expect(env().tabs.map((t) => leaves(t.root)[0]!.processId)).toEqual(['p2']);
    expect(env().activeTabId).toBe(t2!.id);
  });

  it('names a tab (cleaned), and a blank or null name goes back to the program title', () => {
    const s = usePanes.getState();
    s.openTab('e', 'p1');
    const id = env().tabs[0]!.id;
    s.renameTab('e', id, '  build\u0007 logs ');
    expect(env().tabs[0]!.name).toBe('build logs');
    s.renameTab('e', id, '   ');
    expect(env().tabs[0]).not.toHaveProperty('name');
    s.renameTab('e', id, 'again');
    s.renameTab('e', id, null);
    expect(env().tabs[0]).not.toHaveProperty('name');
  });

  it('moves a tab to another place in the strip, clamped to its ends', () => {
    const s = usePanes.getState();
    for (const p of ['p1', 'p2', 'p3']) s.openTab('e', p);
    const order = () => env().tabs.map((t) => leaves(t.root)[0]!.processId);
    const idOf = (p: string) => env().tabs.find((t) => leaves(t.root)[0]!.processId === p)!.id;
    s.moveTab('e', idOf('p3'), 0);
    expect(order()).toEqual(['p3', 'p1', 'p2']);
    s.moveTab('e', idOf('p3'), 99);
    expect(order()).toEqual(['p1', 'p2', 'p3']);
    s.moveTab('e', idOf('p1'), 1);
    expect(order()).toEqual(['p2', 'p1', 'p3']);
  });

  it('maximizes one pane of a split, and restores on toggle, on a split, or when it closes', () => {
    const s = usePanes.getState();
    s.openTab('e', 'p1');
    const first = env().tabs[0]!.focusedPaneId;
    s.toggleMaximize('e', first);
    expect(env().tabs[0]).not.toHaveProperty('maximizedPaneId'); // a lone pane has nothing to hide
    s.split('e', first, 'horizontal', 'p2');
    s.toggleMaximize('e', first);
    expect(env().tabs[0]).toMatchObject({ maximizedPaneId: first, focusedPaneId: first });
    s.toggleMaximize('e', first);
    expect(env().tabs[0]).not.toHaveProperty('maximizedPaneId');

    s.toggleMaximize('e', first);
    s.split('e', first, 'vertical', 'p3'); // a new pane is meant to be seen
    expect(env().tabs[0]).not.toHaveProperty('maximizedPaneId');

    s.toggleMaximize('e', first);
    const other = leaves(env().tabs[0]!.root).find((l) => l.id !== first)!.id;
    s.focusPane('e', other); // focusing a hidden pane shows them all again
    expect(env().tabs[0]).not.toHaveProperty('maximizedPaneId');

    s.toggleMaximize('e', first);
    s.closePane('e', first);
    expect(env().tabs[0]).not.toHaveProperty('maximizedPaneId');
  });
});
