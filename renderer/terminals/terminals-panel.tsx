// The terminal tabs of one environment and the active tab's pane layout. Tabs reorder by drag and
// drop here (the strip knows every tab's place); each tab draws itself (terminal-tab.tsx).
import type { EnvironmentView } from '../../shared/ipc';
import { Maximize2, Minimize2, Pencil, PencilOff, Plus, X } from 'lucide-react';
import { requestCloseTab } from '../panes/pane-actions';
import { openShell } from '../processes/process-actions';
import { envPanes, usePanes } from '../panes/panes-store';
import { useUi } from '../app/ui-store';
import { keysOfId } from '../palette/shortcuts';
import { PaneLayout } from '../panes/pane-layout';
import { contextMenuPoint, PopupMenu, type MenuEntry } from '../ui/popup-menu';
import { TerminalTab, type DropSide, type TabDragHandlers } from './terminal-tab';
import { useCallback, useState, type DragEvent } from 'react';
import { errorMessage } from '../../shared/error-message';

/** The drag's data type: a tab of this window, not a file dropped from the desktop. */
const TAB_DRAG_TYPE = 'application/x-tether-tab';

export function TerminalsPanel({ env }: { env: EnvironmentView }) {
  const panes = usePanes((s) => envPanes(s.byEnv, env.id));
  const { activateTab, moveTab, renameTab, toggleMaximize, restorePanes } = usePanes.getState();
  const setRenaming = useUi((s) => s.setRenamingTab);
  const [error, setError] = useState<string | null>(null);
  const [tabMenu, setTabMenu] = useState<{ at: { x: number; y: number }; tabId: string } | null>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [drop, setDrop] = useState<{ tabId: string; side: DropSide } | null>(null);
  const closeTabMenu = useCallback(() => setTabMenu(null), []);
  const active = panes.tabs.find((t) => t.id === panes.activeTabId);
  const newTerminal = () => {
    setError(null);
    openShell(env.id).catch((e: unknown) => setError(errorMessage(e)));
  };

  const sideOf = (e: DragEvent): DropSide => {
    const r = e.currentTarget.getBoundingClientRect();
    return e.clientX < r.left + r.width / 2 ? 'before' : 'after';
  };
  const drag: TabDragHandlers = {
    onDragStart: (tabId, e) => {
      e.dataTransfer.setData(TAB_DRAG_TYPE, tabId);
      e.dataTransfer.effectAllowed = 'move';
      setDragging(tabId);
    },
    onDragOver: (tabId, e) => {
      if (!dragging || !e.dataTransfer.types.includes(TAB_DRAG_TYPE)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
      const side = sideOf(e);
      if (drop?.tabId !== tabId || drop.side !== side) setDrop({ tabId, side });
    },
    onDrop: (tabId, e) => {
      if (!dragging || !e.dataTransfer.types.includes(TAB_DRAG_TYPE)) return;
      e.preventDefault();
      const from = panes.tabs.findIndex((t) => t.id === dragging);
      const target = panes.tabs.findIndex((t) => t.id === tabId);
      // The gap the tab is dropped into, counted before the tab leaves its own place.
      const gap = target + (sideOf(e) === 'after' ? 1 : 0);
      if (from >= 0 && target >= 0) moveTab(env.id, dragging, from < gap ? gap - 1 : gap);
      setDragging(null);
      setDrop(null);
    },
    onDragEnd: () => {
      setDragging(null);
      setDrop(null);
    },
  };

  const tabMenuItems = (tabId: string): MenuEntry[] => {
    const tab = panes.tabs.find((t) => t.id === tabId);
    const maximized = tab?.maximizedPaneId !== undefined;
    return [
      { label: 'New terminal', icon: Plus, onSelect: newTerminal },
      { label: 'Rename…', icon: Pencil, keys: 'F2', onSelect: () => setRenaming(tabId) },
      ...(tab?.name !== undefined
        ? [
            {
              label: "Use the program's title",
              icon: PencilOff,
              onSelect: () => renameTab(env.id, tabId, null),
            },
          ]
        : []),
      ...(tab && (maximized || tab.root.type === 'split')
        ? [
            {
              label: maximized ? 'Restore panes' : 'Maximize focused pane',
              icon: maximized ? Minimize2 : Maximize2,
              keys: keysOfId('maximizePane'),
              onSelect: () => {
                activateTab(env.id, tabId);
                if (maximized) restorePanes(env.id, tabId);
                else toggleMaximize(env.id, tab.focusedPaneId);
              },
            },
          ]
        : []),
      'separator',
      { label: 'Close tab', icon: X, keys: 'Delete', onSelect: () => requestCloseTab(env.id, tabId) },
    ];
  };

  return (
    <div className="panel">
      <div className="tabs">
        {/* Only tabs inside the tablist; closing is the tab's own Delete key, × and context menu. */}
        <div className="tab-list" role="tablist" aria-label="Terminal tabs">
          {panes.tabs.map((tab, index) => (
            <TerminalTab
              key={tab.id}
              envId={env.id}
              tab={tab}
              index={index}
              active={tab.id === panes.activeTabId}
              dropSide={drop?.tabId === tab.id && dragging !== tab.id ? drop.side : null}
              drag={drag}
              onContextMenu={(e) => {
                e.preventDefault();
                setTabMenu({ at: contextMenuPoint(e), tabId: tab.id });
              }}
            />
          ))}
        </div>
        <button
          className="icon"
          aria-label="New terminal"
          title={`New terminal (${keysOfId('newTerminal')})`}
          onClick={newTerminal}
        >
          <Plus size={15} aria-hidden="true" />
        </button>
        {error && (
          <span role="alert" className="error">
            {error}
          </span>
        )}
      </div>
      {tabMenu && (
        <PopupMenu label="Tab" at={tabMenu.at} onClose={closeTabMenu} items={tabMenuItems(tabMenu.tabId)} />
      )}
      <div className="pane-area" role="tabpanel">
        {active ? (
          <PaneLayout key={active.id} env={env} tab={active} />
        ) : (
          <div className="empty">
            <span>No terminal open in {env.name}.</span>
            <button className="primary" onClick={newTerminal}>
              Open a shell
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
