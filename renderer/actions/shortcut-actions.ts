// Runs a keyboard shortcut (or its menu item) against the active environment and pane.
import { useEnvironments } from '../stores/environments-store';
import { envPanes, leaves, usePanes } from '../stores/panes-store';
import { useUi } from '../stores/ui-store';
import type { ShortcutId } from '../shortcuts';
import { requestClosePanes } from './pane-actions';
import { openShell } from './process-actions';

function focusedPane(envId: string): string | null {
  const env = envPanes(usePanes.getState().byEnv, envId);
  const tab = env.tabs.find((t) => t.id === env.activeTabId);
  if (!tab) return null;
  return leaves(tab.root).some((l) => l.id === tab.focusedPaneId) ? tab.focusedPaneId : null;
}

export function runShortcut(id: ShortcutId): void {
  const ui = useUi.getState();
  if (id === 'commandPalette' || id === 'quickSwitch') {
    ui.openDialog({ kind: id });
    return;
  }
  const envId = ui.activeEnvId;
  if (!envId || !useEnvironments.getState().byId[envId]) return;
  const panes = usePanes.getState();
  const pane = focusedPane(envId);
  switch (id) {
    case 'newTerminal':
      void openShell(envId).catch(() => undefined);
      break;
    case 'closePane':
      if (pane) requestClosePanes(envId, [pane]);
      break;
    case 'nextTab':
    case 'previousTab':
      ui.showPanel(envId, 'terminals');
      panes.cycleTab(envId, id === 'nextTab' ? 1 : -1);
      break;
    case 'splitRight':
    case 'splitDown':
      if (pane) {
        const direction = id === 'splitRight' ? 'horizontal' : 'vertical';
        void openShell(envId, { splitOf: { paneId: pane, direction } }).catch(() => undefined);
      } else void openShell(envId).catch(() => undefined);
      break;
    case 'focusFiles':
      ui.showPanel(envId, 'files');
      ui.requestFileFocus();
      break;
    case 'search':
      if (pane) {
        ui.showPanel(envId, 'terminals');
        ui.toggleSearch(pane);
      }
      break;
  }
}
