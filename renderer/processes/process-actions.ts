// What the user can do with processes: start shells and commands, signal, restart, forget, and
// open them in terminal panes.
import type { CommandInput, ProcessKey, ProcessView } from '../../shared/ipc';
import { invoke } from '../ipc/ipc-client';
import { envPanes, showsProcess, terminalContent, usePanes, type SplitDirection } from '../panes/panes-store';
import { processKeyString } from './process-key';
import { useProcesses } from './processes-store';
import { useUi } from '../app/ui-store';

export async function startProcess(input: CommandInput<'processes.start'>): Promise<ProcessView> {
  const view = await invoke('processes.start', input);
  useProcesses.getState().upsert(view);
  return view;
}

/**
 * Starts the login shell (optionally in `cwd`) in a new tab, or split next to `splitOf`, and shows
 * the environment's terminals (unless `reveal` is false: the user is looking elsewhere).
 */
export async function openShell(
  envId: string,
  options: { cwd?: string; splitOf?: { paneId: string; direction: SplitDirection }; reveal?: boolean } = {},
): Promise<void> {
  const view = await startProcess({ envId, tty: true, ...(options.cwd ? { cwd: options.cwd } : {}) });
  const content = terminalContent(view.processId);
  if (options.splitOf)
    usePanes.getState().split(envId, options.splitOf.paneId, options.splitOf.direction, content);
  else usePanes.getState().openTab(envId, content);
  if (options.reveal !== false) useUi.getState().showPanel(envId, 'terminals');
}

export function openInPane(key: ProcessKey): void {
  usePanes.getState().openTab(key.envId, terminalContent(key.processId));
  useUi.getState().showPanel(key.envId, 'terminals');
}

export function signalProcess(
  key: ProcessKey,
  signal: CommandInput<'processes.signal'>['signal'],
): Promise<unknown> {
  return invoke('processes.signal', { ...key, signal });
}

/** Processes being restarted: their removal must not close the panes about to show the new one. */
const replacing = new Set<string>();

export function isBeingReplaced(key: ProcessKey): boolean {
  return replacing.has(processKeyString(key));
}

/**
 * Restarts with the same command (a new process that takes the old one's row); panes showing the
 * old one switch to it, or a pane opens on it when none showed the old one. The old terminal is
 * disposed once no pane shows it.
 */
export async function restartProcess(key: ProcessKey): Promise<void> {
  const id = processKeyString(key);
  replacing.add(id);
  try {
    const view = await invoke('processes.restart', key);
    useProcesses.getState().upsert(view);
    if (showsProcess(envPanes(usePanes.getState().byEnv, key.envId), key.processId))
      usePanes
        .getState()
        .replaceContent(key.envId, terminalContent(key.processId), terminalContent(view.processId));
    else openInPane(view);
  } finally {
    replacing.delete(id);
  }
}

export async function forgetProcess(key: ProcessKey): Promise<void> {
  await invoke('processes.forget', key);
  useProcesses.getState().remove(key);
}
