// The terminal tabs of one environment and the active tab's pane layout.
import type { EnvironmentView } from '../../shared/ipc';
import { Plus, X } from 'lucide-react';
import { requestCloseTab } from '../actions/pane-actions';
import { openShell } from '../actions/process-actions';
import { envPanes, leaves, usePanes } from '../stores/panes-store';
import { useProcesses } from '../stores/processes-store';
import { processKeyString } from '../stores/process-key';
import { PaneLayout } from './pane-layout';
import { contextMenuPoint, PopupMenu } from './popup-menu';
import { useCallback, useState } from 'react';
import { errorMessage } from '../../shared/error-message';

export function TerminalsPanel({ env }: { env: EnvironmentView }) {
  const panes = usePanes((s) => envPanes(s.byEnv, env.id));
  const byKey = useProcesses((s) => s.byKey);
  const { activateTab } = usePanes.getState();
  const [error, setError] = useState<string | null>(null);
  const [tabMenu, setTabMenu] = useState<{ at: { x: number; y: number }; tabId: string } | null>(null);
  const closeTabMenu = useCallback(() => setTabMenu(null), []);
  const active = panes.tabs.find((t) => t.id === panes.activeTabId);
  const newTerminal = () => {
    setError(null);
    openShell(env.id).catch((e: unknown) => setError(errorMessage(e)));
  };
  return (
    <div className="panel">
      <div className="tabs">
        {/* Only tabs inside the tablist; closing is the tab's own Delete key, × and context menu. */}
        <div className="tab-list" role="tablist" aria-label="Terminal tabs">
          {panes.tabs.map((tab, index) => {
            const first = leaves(tab.root)[0];
            const title = first
              ? (byKey[processKeyString({ envId: env.id, processId: first.processId })]?.title ?? 'terminal')
              : 'terminal';
            const count = leaves(tab.root).length;
            return (
              <button
                key={tab.id}
                role="tab"
                className="term-tab"
                aria-selected={tab.id === panes.activeTabId}
                aria-keyshortcuts="Delete"
                onClick={() => activateTab(env.id, tab.id)}
                onAuxClick={(e) => e.button === 1 && requestCloseTab(env.id, tab.id)}
                onKeyDown={(e) => {
                  if (e.key === 'Delete') {
                    e.preventDefault();
                    requestCloseTab(env.id, tab.id);
                  }
                }}
                onContextMenu={(e) => {
                  e.preventDefault();
                  setTabMenu({ at: contextMenuPoint(e), tabId: tab.id });
                }}
              >
                <span className="tab-title">
                  {index + 1}: {title}
                  {count > 1 ? ` (${count})` : ''}
                </span>
                <span
                  className="close"
                  aria-hidden="true"
                  title="Close tab"
                  onClick={(e) => {
                    e.stopPropagation();
                    requestCloseTab(env.id, tab.id);
                  }}
                >
                  <X size={13} />
                </span>
              </button>
            );
          })}
        </div>
        <button
          className="icon"
          aria-label="New terminal"
          title="New terminal (Ctrl+Shift+T)"
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
        <PopupMenu
          label="Tab"
          at={tabMenu.at}
          onClose={closeTabMenu}
          items={[
            { label: 'New terminal', icon: Plus, onSelect: newTerminal },
            {
              label: 'Close tab',
              icon: X,
              keys: 'Delete',
              onSelect: () => requestCloseTab(env.id, tabMenu.tabId),
            },
          ]}
        />
      )}
      <div className="pane-area" role="tabpanel">
        {active ? (
          <PaneLayout key={active.id} env={env} node={active.root} focusedPaneId={active.focusedPaneId} />
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
