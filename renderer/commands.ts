// The command registry: every command the app offers, with its keyboard shortcut where it has one.
// The command palette, the app menu and the shortcuts all read this one list, so a command is
// named, bound and run in one place.
import { activeEditorId, openEditor, saveEditor } from './actions/editor-actions';
import { reconnectAll, reconnectNow } from './actions/environment-actions';
import { runShortcut } from './actions/shortcut-actions';
import { useEnvironments } from './stores/environments-store';
import { filesOf, useFiles } from './stores/files-store';
import { envPanes, usePanes } from './stores/panes-store';
import { useUi, type EnvPanel } from './stores/ui-store';
import { keysOf, SHORTCUTS } from './shortcuts';

export interface AppCommand {
  id: string;
  label: string;
  /** The keys shown beside it, for this host. */
  keys?: string;
  run: () => void;
}

const PANEL_LABELS: Record<EnvPanel, string> = {
  terminals: 'Terminals',
  processes: 'Processes',
  files: 'Files',
  health: 'Health',
};

function activeEnvId(): string | null {
  const id = useUi.getState().activeEnvId;
  return id && useEnvironments.getState().byId[id] ? id : null;
}

/** Every command, in the order menus show them. */
export function appCommands(): AppCommand[] {
  const ui = useUi.getState();
  const fromShortcuts = SHORTCUTS.map((s) => ({
    id: s.id,
    label: s.label,
    keys: keysOf(s),
    run: () => runShortcut(s.id),
  }));
  const panels = (Object.keys(PANEL_LABELS) as EnvPanel[]).map((panel) => ({
    id: `show-${panel}`,
    label: `Show ${PANEL_LABELS[panel]}`,
    run: () => {
      const envId = activeEnvId();
      if (envId) ui.showPanel(envId, panel);
    },
  }));
  return [
    ...fromShortcuts,
    ...panels,
    { id: 'addEnvironment', label: 'Add environment…', run: () => ui.openDialog({ kind: 'addEnvironment' }) },
    {
      id: 'reconnectNow',
      label: 'Reconnect this environment now',
      run: () => {
        const envId = activeEnvId();
        if (envId) void reconnectNow(envId).catch(() => undefined);
      },
    },
    {
      id: 'editFile',
      label: 'Edit the selected file',
      run: () => {
        const envId = activeEnvId();
        if (!envId) return;
        const files = filesOf(useFiles.getState().byEnv, envId);
        const entry = files.entries.find((e) => e.path === files.selected);
        if (!entry || entry.kind === 'directory') return;
        ui.showPanel(envId, 'files');
        void openEditor(envId, entry.path);
      },
    },
    {
      id: 'saveFile',
      label: 'Save the file in the editor',
      keys: 'Ctrl+S',
      run: () => {
        const envId = activeEnvId();
        const id = envId ? activeEditorId(envId) : null;
        if (id) void saveEditor(id);
      },
    },
    {
      id: 'renameTab',
      label: 'Rename terminal tab',
      keys: 'F2 (on the tab)',
      run: () => {
        const envId = activeEnvId();
        const tabId = envId ? envPanes(usePanes.getState().byEnv, envId).activeTabId : null;
        if (!envId || !tabId) return;
        ui.showPanel(envId, 'terminals');
        ui.setRenamingTab(tabId);
      },
    },
    { id: 'reconnectAll', label: 'Reconnect all', run: () => void reconnectAll().catch(() => undefined) },
    { id: 'settings', label: 'Settings…', run: () => ui.openDialog({ kind: 'settings' }) },
    { id: 'shortcuts', label: 'Keyboard shortcuts', run: () => ui.openDialog({ kind: 'shortcuts' }) },
  ];
}
