// Runs a keyboard shortcut (or its menu item) against the active environment and pane.
import { useEnvironments } from '../environments/environments-store';
import { envPanes, leaves, usePanes } from '../panes/panes-store';
import { panelOf, useUi } from '../app/ui-store';
import type { ShortcutId } from './shortcuts';
import { focusNeighbourPane, requestClosePanes } from '../panes/pane-actions';
import type { FocusDirection } from '../panes/pane-geometry';

const FOCUS_DIRECTIONS: Partial<Record<ShortcutId, FocusDirection>> = {
  focusPaneLeft: 'left',
  focusPaneRight: 'right',
  focusPaneUp: 'up',
  focusPaneDown: 'down',
};
import { openShell } from '../processes/process-actions';
import { showFindInFiles } from '../search/search-actions';
import { jumpToCommand } from '../terminals/command-actions';

function focusedPane(envId: string): string | null {
  const env = envPanes(usePanes.getState().byEnv, envId);
  const tab = env.tabs.find((t) => t.id === env.activeTabId);
  if (!tab) return null;
  return leaves(tab.root).some((l) => l.id === tab.focusedPaneId) ? tab.focusedPaneId : null;
}

export function runShortcut(id: ShortcutId): void {
  const ui = useUi.getState();
  if (id === 'commandPalette' || id === 'quickOpen') {
    ui.openDialog({ kind: id });
    return;
  }
  const envId = ui.activeEnvId;
  if (!envId || !useEnvironments.getState().byId[envId]) return;
  const panes = usePanes.getState();
  const pane = focusedPane(envId);
  const direction = FOCUS_DIRECTIONS[id];
  if (direction) {
    // Only the Terminals panel has panes to move between.
    if (pane && panelOf(ui.panelByEnv, envId) === 'terminals') focusNeighbourPane(envId, pane, direction);
    return;
  }
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
    case 'findInFiles':
      showFindInFiles(envId);
      break;
    case 'focusFiles':
      ui.showPanel(envId, 'files');
      ui.requestFileFocus();
      break;
    case 'maximizePane':
      if (pane) {
        ui.showPanel(envId, 'terminals');
        panes.toggleMaximize(envId, pane);
      }
      break;
    case 'moveTabLeft':
    case 'moveTabRight': {
      const env = envPanes(panes.byEnv, envId);
      const index = env.tabs.findIndex((t) => t.id === env.activeTabId);
      if (index >= 0)
        panes.moveTab(envId, env.activeTabId as string, index + (id === 'moveTabRight' ? 1 : -1));
      break;
    }
    case 'previousCommand':
    case 'nextCommand':
      jumpToCommand(id === 'previousCommand' ? 'previous' : 'next');
      break;
    case 'search':
      if (pane) {
        ui.showPanel(envId, 'terminals');
        ui.toggleSearch(pane);
      }
      break;
  }
}
