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
});
