import { beforeEach, describe, expect, it } from 'vitest';
import { envPanes, leaves, processIdOf, terminalContent, usePanes, type PaneContent } from './panes-store';
import { resetStores } from '../test/reset-stores';

const env = () => envPanes(usePanes.getState().byEnv, 'e');

describe('panes store', () => {
  beforeEach(resetStores);

  it('opens tabs, splits a pane and collapses the split when one side closes', () => {
    const s = usePanes.getState();
    s.openTab('e', terminalContent('p1'));
    const tab = env().tabs[0]!;
    s.split('e', tab.focusedPaneId, 'horizontal', terminalContent('p2'));
    const split = env().tabs[0]!;
    expect(split.root.type).toBe('split');
    expect(leaves(split.root).map(processIdOf)).toEqual(['p1', 'p2']);
    expect(split.focusedPaneId).toBe(leaves(split.root)[1]!.id);
    s.closePane('e', leaves(split.root)[0]!.id);
    const after = env().tabs[0]!;
    expect(after.root).toMatchObject({ type: 'leaf', content: terminalContent('p2') });
    s.closePane('e', after.root.id);
    expect(env()).toEqual({ tabs: [], activeTabId: null });
  });

  it('cycles tabs, swaps a restarted process in place and prunes processes that are gone', () => {
    const s = usePanes.getState();
    s.openTab('e', terminalContent('p1'));
    s.openTab('e', terminalContent('p2'));
    const [t1, t2] = env().tabs;
    expect(env().activeTabId).toBe(t2!.id);
    s.cycleTab('e', 1);
    expect(env().activeTabId).toBe(t1!.id);
    s.replaceContent('e', terminalContent('p1'), terminalContent('p9'));
    expect(processIdOf(leaves(env().tabs[0]!.root)[0]!)).toBe('p9');
    s.prune('e', (c) => c.kind === 'terminal' && c.processId === 'p2');
    expect(env().tabs.map((t) => processIdOf(leaves(t.root)[0]!))).toEqual(['p2']);
    expect(env().activeTabId).toBe(t2!.id);
  });

  it('leaves the state untouched when a prune drops nothing (a fleet reconnecting lists every environment again)', () => {
    const s = usePanes.getState();
    s.openTab('e', terminalContent('p1'));
    const before = usePanes.getState().byEnv;
    let notified = 0;
    const stop = usePanes.subscribe(() => (notified += 1));
    s.prune('e', () => true);
    s.prune('elsewhere', () => false);
    stop();
    expect(usePanes.getState().byEnv).toBe(before);
    // No subscriber ran: no layout save, no pane redrawn.
    expect(notified).toBe(0);
  });

  it('names a tab (cleaned), and a blank or null name goes back to the program title', () => {
    const s = usePanes.getState();
    s.openTab('e', terminalContent('p1'));
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
    for (const p of ['p1', 'p2', 'p3']) s.openTab('e', terminalContent(p));
    const order = () => env().tabs.map((t) => processIdOf(leaves(t.root)[0]!));
    const idOf = (p: string) => env().tabs.find((t) => processIdOf(leaves(t.root)[0]!) === p)!.id;
    s.moveTab('e', idOf('p3'), 0);
    expect(order()).toEqual(['p3', 'p1', 'p2']);
    s.moveTab('e', idOf('p3'), 99);
    expect(order()).toEqual(['p1', 'p2', 'p3']);
    s.moveTab('e', idOf('p1'), 1);
    expect(order()).toEqual(['p2', 'p1', 'p3']);
  });

  it('maximizes one pane of a split, and restores on toggle, on a split, or when it closes', () => {
    const s = usePanes.getState();
    s.openTab('e', terminalContent('p1'));
    const first = env().tabs[0]!.focusedPaneId;
    s.toggleMaximize('e', first);
    expect(env().tabs[0]).not.toHaveProperty('maximizedPaneId'); // a lone pane has nothing to hide
    s.split('e', first, 'horizontal', terminalContent('p2'));
    s.toggleMaximize('e', first);
    expect(env().tabs[0]).toMatchObject({ maximizedPaneId: first, focusedPaneId: first });
    s.toggleMaximize('e', first);
    expect(env().tabs[0]).not.toHaveProperty('maximizedPaneId');

    s.toggleMaximize('e', first);
    s.split('e', first, 'vertical', terminalContent('p3')); // a new pane is meant to be seen
    expect(env().tabs[0]).not.toHaveProperty('maximizedPaneId');

    s.toggleMaximize('e', first);
    const other = leaves(env().tabs[0]!.root).find((l) => l.id !== first)!.id;
    s.focusPane('e', other); // focusing a hidden pane shows them all again
    expect(env().tabs[0]).not.toHaveProperty('maximizedPaneId');

    s.toggleMaximize('e', first);
    s.closePane('e', first);
    expect(env().tabs[0]).not.toHaveProperty('maximizedPaneId');
  });

  it('holds terminals and editors side by side: split, swap and prune touch only the content meant', () => {
    const s = usePanes.getState();
    const notes: PaneContent = { kind: 'editor', environmentId: 'e', path: '/srv/notes.md' };
    const shell = terminalContent('p1');
    s.openTab('e', shell);
    s.split('e', env().tabs[0]!.focusedPaneId, 'horizontal', notes);
    s.openTab('e', notes);
    const contents = () => env().tabs.map((t) => leaves(t.root).map((l) => l.content));
    expect(contents()).toEqual([[shell, notes], [notes]]);

    // The same path in another environment is other content.
    s.replaceContent('e', { ...notes, environmentId: 'other' }, terminalContent('x'));
    expect(contents()).toEqual([[shell, notes], [notes]]);
    const moved: PaneContent = { kind: 'editor', environmentId: 'e', path: '/srv/notes.old.md' };
    s.replaceContent('e', notes, moved);
    expect(contents()).toEqual([[shell, moved], [moved]]);

    // Pruning the processes that are gone keeps every editor, and the tab an editor alone holds.
    s.prune('e', (c) => c.kind !== 'terminal');
    expect(contents()).toEqual([[moved], [moved]]);
    expect(env().tabs[0]!.root).toMatchObject({ type: 'leaf', content: moved });
  });
});
