// The command registry: what every command of the shared catalog does (and the generated "Show
// panel" ones). The command palette and the native menu's items run commands from here; names and
// keys come from the catalog (shared/command-catalog.ts), so they are written once.
import { activeEditorId, openEditor } from '../editor/editor-actions';
import { saveEditor } from '../editor/editor-save';
import { reconnectAll, reconnectNow, setConnected } from '../environments/environment-actions';
import { signalProcess } from '../processes/process-actions';
import { saveSettings } from '../settings/settings-actions';
import { useSettings } from '../settings/settings-store';
import { terminalFor } from '../terminals/xterm/terminal-registry';
import { resolvedTheme } from '../terminals/xterm/terminal-schemes';
import { runShortcut } from './shortcut-actions';
import { useEnvironments } from '../environments/environments-store';
import { filesOf, useFiles } from '../files/files-store';
import { envPanes, usePanes } from '../panes/panes-store';
import { closeWorkspaceFolder, workspaceFolderOf } from '../files/workspace-actions';
import { useUi, type EnvPanel } from '../app/ui-store';
import { catalogCommand, type CommandId } from '../../shared/command-catalog';
import { keysOf, SHORTCUTS } from './shortcuts';
import {
  copyCommandOutput,
  focusedProcess,
  goToTerminalFolder,
  rerunCommand,
  selectCommandOutput,
} from '../terminals/command-actions';

export interface AppCommand {
  id: string;
  label: string;
  /** The keys shown beside it, for this host. */
  keys?: string;
  run: () => void;
  /** False where the command means nothing for the active environment; the palette leaves it out. */
  available?: () => boolean;
}

const PANEL_LABELS: Record<EnvPanel, string> = {
  terminals: 'Terminals',
  processes: 'Processes',
  ports: 'Ports',
  files: 'Files',
  search: 'Search',
  health: 'Health',
};

function activeEnvId(): string | null {
  const id = useUi.getState().activeEnvId;
  return id && useEnvironments.getState().byId[id] ? id : null;
}

const ignore = () => undefined;

/** A catalog command without a global binding: its label and any key hint come from the catalog. */
function named(id: CommandId, run: () => void, available?: () => boolean): AppCommand {
  const { label, keysHint } = catalogCommand(id);
  return { id, label, ...(keysHint ? { keys: keysHint } : {}), run, ...(available ? { available } : {}) };
}

function activeKind(): string | undefined {
  const envId = activeEnvId();
  return envId ? useEnvironments.getState().byId[envId]?.settings.kind : undefined;
}

/** The active environment's connect bootstraps its target: it has a connect view (null before one). */
function bootstrapsTarget(): boolean {
  const envId = activeEnvId();
  return envId !== null && useEnvironments.getState().byId[envId]?.sshConnect !== undefined;
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
      void openEditor(envId, entry.path);
    }),
    named('newFile', () => {
      const envId = activeEnvId();
      if (!envId) return;
      ui.showPanel(envId, 'files');
      ui.openDialog({ kind: 'newFile', envId });
    }),
    named('forwardPort', () => {
      const envId = activeEnvId();
      if (!envId) return;
      ui.showPanel(envId, 'ports');
      ui.openDialog({ kind: 'forwardPort', envId });
    }),
    named('openFolder', () => {
      const envId = activeEnvId();
      if (!envId) return;
      ui.showPanel(envId, 'files');
      ui.requestOpenFolder(envId);
    }),
    named('closeFolder', () => {
      const envId = activeEnvId();
      if (!envId || !workspaceFolderOf(envId)) return;
      ui.showPanel(envId, 'files');
      void closeWorkspaceFolder(envId).catch(() => undefined);
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
    named('connectEnvironment', () => {
      const envId = activeEnvId();
      if (envId) void setConnected(envId, true).catch(ignore);
    }),
    named('disconnectEnvironment', () => {
      const envId = activeEnvId();
      if (envId) void setConnected(envId, false).catch(ignore);
    }),
    named('editEnvironment', () => {
      const envId = activeEnvId();
      if (envId) ui.openDialog({ kind: 'editEnvironment', id: envId });
    }),
    named(
      'removeEnvironment',
      () => {
        const envId = activeEnvId();
        // The menu runs it by id on any environment, so the run checks too.
        if (envId && activeKind() !== 'local') ui.openDialog({ kind: 'removeEnvironment', id: envId });
      },
      // The Local environment cannot be removed (the sidebar offers no Remove for it either).
      () => activeKind() !== undefined && activeKind() !== 'local',
    ),
    named(
      'uninstallFromHost',
      () => {
        const envId = activeEnvId();
        if (envId && bootstrapsTarget()) ui.openDialog({ kind: 'uninstallFromHost', id: envId });
      },
      // Only a target Tether bootstraps (SSH host, container, exec prefix) has a Tether it installed.
      () => bootstrapsTarget(),
    ),
    named('interruptProcess', () => {
      const key = focusedProcess();
      if (key) void signalProcess(key, 'interrupt').catch(ignore);
    }),
    named('killProcess', () => {
      const key = focusedProcess();
      if (key) void signalProcess(key, 'kill').catch(ignore);
    }),
    named('clearTerminal', () => {
      const key = focusedProcess();
      if (key) terminalFor(key, useSettings.getState().settings).clear();
    }),
    named('selectCommandOutput', selectCommandOutput),
    named('copyCommandOutput', copyCommandOutput),
    named('rerunCommand', rerunCommand),
    named('goToTerminalFolder', goToTerminalFolder),
    named('toggleTheme', () => {
      const now = resolvedTheme(useSettings.getState().settings.theme);
      void saveSettings({ theme: now === 'dark' ? 'light' : 'dark' }).catch(ignore);
    }),
    named('reconnectAll', () => void reconnectAll().catch(() => undefined)),
    named('settings', () => ui.openDialog({ kind: 'settings' })),
    named('shortcuts', () => ui.openDialog({ kind: 'shortcuts' })),
  ];
}

/** The commands the palette offers now: the registry less those meaning nothing here. */
export function paletteCommands(): AppCommand[] {
  return appCommands().filter((command) => command.available?.() ?? true);
}
