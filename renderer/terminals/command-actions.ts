// What the user can do with the commands a shell marked (shell integration), on the terminal of
// the focused pane: jump between them, select or copy one's output, run it again, and show the
// shell's folder in Files.
import type { ProcessKey } from '../../shared/ipc';
import { useUi } from '../app/ui-store';
import { useEnvironments } from '../environments/environments-store';
import { navigate } from '../files/file-actions';
import { envPanes, leaves, processIdOf, usePanes } from '../panes/panes-store';
import { cwdOf } from '../processes/processes-store';
import { useSettings } from '../settings/settings-store';
import { terminalFor } from './xterm/terminal-registry';
import type { ProcessTerminal } from './xterm/process-terminal';

/** The process shown in the focused pane of the active environment's active tab. */
export function focusedProcess(): ProcessKey | null {
  const envId = useUi.getState().activeEnvId;
  if (!envId || !useEnvironments.getState().byId[envId]) return null;
  const env = envPanes(usePanes.getState().byEnv, envId);
  const tab = env.tabs.find((t) => t.id === env.activeTabId);
  const leaf = tab ? leaves(tab.root).find((l) => l.id === tab.focusedPaneId) : undefined;
  const processId = leaf ? processIdOf(leaf) : undefined;
  return processId ? { envId, processId } : null;
}

function focusedTerminal(): ProcessTerminal | null {
  const key = focusedProcess();
  return key ? terminalFor(key, useSettings.getState().settings) : null;
}

export function jumpToCommand(direction: 'previous' | 'next'): void {
  focusedTerminal()?.jumpToCommand(direction);
}

export function selectCommandOutput(): void {
  focusedTerminal()?.selectCommandOutput();
}

export function copyCommandOutput(): void {
  void focusedTerminal()
    ?.copyCommandOutput()
    .catch(() => undefined);
}

export function rerunCommand(): void {
  const terminal = focusedTerminal();
  if (terminal?.rerunCommand()) terminal.focus();
}

/** Shows the folder the focused pane's shell is in (its last OSC 7 report) in Files. */
export function goToTerminalFolder(): void {
  const key = focusedProcess();
  const folder = key ? cwdOf(key) : undefined;
  if (!key || !folder) return;
  useUi.getState().showPanel(key.envId, 'files');
  void navigate(key.envId, folder).catch(() => undefined);
}
