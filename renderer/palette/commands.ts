// The command registry: what every command of the shared catalog does (and the generated "Show
// panel" ones). The command palette and the native menu's items run commands from here; names and
// keys come from the catalog (shared/command-catalog.ts), so they are written once.
import { activeEditorId, openEditor, saveEditor } from '../editor/editor-actions';
import { reconnectAll, reconnectNow } from '../environments/environment-actions';
import { runShortcut } from './shortcut-actions';
import { useEnvironments } from '../environments/environments-store';
import { filesOf, useFiles } from '../files/files-store';
import { envPanes, usePanes } from '../terminals/panes-store';
import { useUi, type EnvPanel } from '../app/ui-store';
import { catalogCommand, type CommandId } from '../../shared/command-catalog';
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
  search: 'Search',
  health: 'Health',
};

function activeEnvId(): string | null {
  const id = useUi.getState().activeEnvId;
  return id && useEnvironments.getState().byId[id] ? id : null;
}

/** A catalog command without a global binding: its label and any key hint come from the catalog. */
function named(id: CommandId, run: () => void): AppCommand {
  const { label, keysHint } = catalogCommand(id);
  return { id, label, ...(keysHint ? { keys: keysHint } : {}), run };
}

/** Every command, in the order the palette shows them. */
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
    named('addEnvironment', () => ui.openDialog({ kind: 'addEnvironment' })),
    named('reconnectNow', () => {
      const envId = activeEnvId();
      if (envId) void reconnectNow(envId).catch(() => undefined);
    }),
    named('editFile', () => {
      const envId = activeEnvId();
      if (!envId) return;
      const files = filesOf(useFiles.getState().byEnv, envId);
      const entry = files.entries.find((e) => e.path === files.selected);
      if (!entry || entry.kind === 'directory') return;
      ui.showPanel(envId, 'files');
      void openEditor(envId, entry.path);
    }),
    named('saveFile', () => {
      const envId = activeEnvId();
      const id = envId ? activeEditorId(envId) : null;
      if (id) void saveEditor(id);
    }),
    named('renameTab', () => {
      const envId = activeEnvId();
      const tabId = envId ? envPanes(usePanes.getState().byEnv, envId).activeTabId : null;
      if (!envId || !tabId) return;
      ui.showPanel(envId, 'terminals');
      ui.setRenamingTab(tabId);
    }),
    named('reconnectAll', () => void reconnectAll().catch(() => undefined)),
    named('settings', () => ui.openDialog({ kind: 'settings' })),
    named('shortcuts', () => ui.openDialog({ kind: 'shortcuts' })),
  ];
}
