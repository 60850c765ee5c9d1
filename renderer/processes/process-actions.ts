// What the user can do with processes: start shells and commands, signal, restart, forget, and
// open them in terminal panes.
import type { CommandInput, OtherProcessView, ProcessKey, ProcessView } from '../../shared/ipc';
import { invoke } from '../ipc/ipc-client';
import {
  envPanes,
  leaves,
  processIdOf,
  showsProcess,
  terminalContent,
  usePanes,
  type SplitDirection,
} from '../panes/panes-store';
import { processKeyString } from './process-key';
import { cwdOf, useProcesses } from './processes-store';
import { useUi } from '../app/ui-store';

export async function startProcess(input: CommandInput<'processes.start'>): Promise<ProcessView> {
  const view = await invoke('processes.start', input);
  useProcesses.getState().upsert(view);
  return view;
}

/**
 * Starts a shell as the environment's terminal profile says (optionally in `cwd`) in a new tab, or
 * split next to `splitOf`: a split of a terminal starts in that terminal's folder.
 */
export async function openShell(
  envId: string,
  options: {
    cwd?: string;
    splitOf?: { paneId: string; direction: SplitDirection };
    /**
     * Switch the environment to its terminals (default). False leaves the panel the user is on, and
     * the tab too if they switched tabs (or opened one) while the shell was starting.
     */
    reveal?: boolean;
  } = {},
): Promise<void> {
  const cwd = options.cwd ?? (options.splitOf && paneFolder(envId, options.splitOf.paneId));
  const tabAtStart = envPanes(usePanes.getState().byEnv, envId).activeTabId;
  const view = await startProcess({ envId, tty: true, ...(cwd ? { cwd } : {}) });
  const content = terminalContent(view.processId);
  if (options.splitOf)
    usePanes.getState().split(envId, options.splitOf.paneId, options.splitOf.direction, content);
  else {
    const userMoved = envPanes(usePanes.getState().byEnv, envId).activeTabId !== tabAtStart;
    usePanes.getState().openTab(envId, content, { activate: options.reveal !== false || !userMoved });
  }
  if (options.reveal !== false) useUi.getState().showPanel(envId, 'terminals');
}

/** The folder of the terminal pane `paneId` shows (see cwdOf); undefined for other panes. */
function paneFolder(envId: string, paneId: string): string | undefined {
  const leaf = envPanes(usePanes.getState().byEnv, envId)
    .tabs.flatMap((t) => leaves(t.root))
    .find((l) => l.id === paneId);
  const processId = leaf && processIdOf(leaf);
  return processId ? cwdOf({ envId, processId }) : undefined;
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

/** Opens another client's process in a new pane, read-only, from its retained output on. */
export async function watchProcess(envId: string, other: OtherProcessView): Promise<ProcessView> {
  const view = await invoke('processes.watch', {
    envId,
    sessionId: other.sessionId,
    processId: other.processId,
  });
  useProcesses.getState().upsert(view);
  openInPane(view);
  return view;
}

/** A watched process takes this pane's typing, size and signals from now on. */
export async function takeOverProcess(key: ProcessKey): Promise<void> {
  useProcesses.getState().upsert(await invoke('processes.takeOver', key));
}

/** A watched process moves under this app's session: its owner's session ending no longer ends it. */
export async function keepProcess(key: ProcessKey): Promise<void> {
  useProcesses.getState().upsert(await invoke('processes.keep', key));
}
