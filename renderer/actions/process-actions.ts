// What the user can do with processes: start shells and commands, signal, restart, forget, and
// open them in terminal panes.
import type { CommandInput, ProcessKey, ProcessView } from '../../shared/ipc';
import { invoke } from '../ipc/ipc-client';
import { usePanes, type SplitDirection } from '../stores/panes-store';
import { useProcesses } from '../stores/processes-store';
import { useUi } from '../stores/ui-store';

export async function startProcess(input: CommandInput<'processes.start'>): Promise<ProcessView> {
  const view = await invoke('processes.start', input);
  useProcesses.getState().upsert(view);
  return view;
}

/** Starts the login shell (optionally in `cwd`) in a new tab, or split next to `splitOf`. */
export async function openShell(
  envId: string,
  options: { cwd?: string; splitOf?: { paneId: string; direction: SplitDirection } } = {},
): Promise<void> {
  const view = await startProcess({ envId, tty: true, ...(options.cwd ? { cwd: options.cwd } : {}) });
  if (options.splitOf)
    usePanes.getState().split(envId, options.splitOf.paneId, options.splitOf.direction, view.processId);
  else usePanes.getState().openTab(envId, view.processId);
  useUi.getState().showPanel(envId, 'terminals');
}

export function openInPane(key: ProcessKey): void {
  usePanes.getState().openTab(key.envId, key.processId);
  useUi.getState().showPanel(key.envId, 'terminals');
}

export function signalProcess(
  key: ProcessKey,
  signal: CommandInput<'processes.signal'>['signal'],
): Promise<unknown> {
  return invoke('processes.signal', { ...key, signal });
}

/**
 * Restarts with the same command (a new process); panes showing the old one switch to it, and the
 * old terminal is disposed once no pane shows it.
 */
export async function restartProcess(key: ProcessKey): Promise<void> {
  const view = await invoke('processes.restart', key);
  useProcesses.getState().upsert(view);
  usePanes.getState().replaceProcess(key.envId, key.processId, view.processId);
}

export async function forgetProcess(key: ProcessKey): Promise<void> {
  await invoke('processes.forget', key);
  useProcesses.getState().remove(key);
}
