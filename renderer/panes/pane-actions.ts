// Closing panes and tabs (a pane whose process still runs, and shows in no other pane, is not
// closed silently: the user chooses to terminate it or to keep it running in the background; an
// editor with unsaved changes asks save / discard / cancel first), and moving between panes by
// where they are on screen.
import { processKeyString } from '../processes/process-key';
import { envPanes, leaves, processIdOf, usePanes } from './panes-store';
import { useProcesses } from '../processes/processes-store';
import { useUi } from '../app/ui-store';
import type { ProcessView } from '../../shared/ipc';
import { signalProcess } from '../processes/process-actions';
import { editorOfContent, requestClose } from '../editor/editor-actions';
import { neighbourInDirection, type FocusDirection, type PaneRect } from './pane-geometry';

function isRunning(p: ProcessView | undefined): p is ProcessView {
  return !!p && (p.state === 'running' || p.state === 'starting');
}

/** The running processes that closing `paneIds` would leave with no pane. */
export function processesLeftWithoutPane(envId: string, paneIds: string[]): ProcessView[] {
  const closing = new Set(paneIds);
  const all = envPanes(usePanes.getState().byEnv, envId).tabs.flatMap((t) => leaves(t.root));
  const stillShown = new Set(all.filter((l) => !closing.has(l.id)).map(processIdOf));
  const byKey = useProcesses.getState().byKey;
  const left = new Map<string, ProcessView>();
  for (const leaf of all) {
    const processId = processIdOf(leaf);
    // Only a terminal has a process to leave running; other kinds close at once.
    if (processId === undefined || !closing.has(leaf.id) || stillShown.has(processId)) continue;
    const p = byKey[processKeyString({ envId, processId })];
    if (isRunning(p)) left.set(p.processId, p);
  }
  return [...left.values()];
}

/**
 * Closes the panes at once when nothing would be left running unseen; otherwise asks first. An
 * editor pane with unsaved changes stays until its own question (shown in its tab) is answered.
 */
export function requestClosePanes(envId: string, requested: string[]): void {
  const paneIds = requested.filter((id) => !askedAboutUnsavedEdits(envId, id));
  if (paneIds.length === 0) return;
  if (processesLeftWithoutPane(envId, paneIds).length === 0) {
    closePanes(envId, paneIds);
    return;
  }
  useUi.getState().openDialog({ kind: 'closePanes', envId, paneIds });
}

/** Whether pane `paneId` is an editor with unsaved changes, now asking what to do with them. */
function askedAboutUnsavedEdits(envId: string, paneId: string): boolean {
  const env = envPanes(usePanes.getState().byEnv, envId);
  for (const tab of env.tabs) {
    const leaf = leaves(tab.root).find((l) => l.id === paneId);
    const editor = leaf && editorOfContent(leaf.content);
    if (!editor?.dirty) continue;
    // The question shows in the pane, so its tab comes forward.
    usePanes.getState().activateTab(envId, tab.id);
    requestClose(editor.id);
    return true;
  }
  return false;
}

export function requestCloseTab(envId: string, tabId: string): void {
  const tab = envPanes(usePanes.getState().byEnv, envId).tabs.find((t) => t.id === tabId);
  if (tab)
    requestClosePanes(
      envId,
      leaves(tab.root).map((l) => l.id),
    );
}

export function closePanes(envId: string, paneIds: string[]): void {
  for (const id of paneIds) usePanes.getState().closePane(envId, id);
}

/** "Terminate": ends the processes only these panes showed, then closes the panes. */
export async function terminateAndClosePanes(envId: string, paneIds: string[]): Promise<void> {
  const left = processesLeftWithoutPane(envId, paneIds);
  await Promise.all(left.map((p) => signalProcess({ envId, processId: p.processId }, 'terminate')));
  closePanes(envId, paneIds);
}

/** Attribute every rendered pane carries, so focus moves can find the panes on screen. */
export const PANE_ID_ATTRIBUTE = 'data-pane-id';

function paneRectsOnScreen(): PaneRect[] {
  return Array.from(document.querySelectorAll<HTMLElement>(`[${PANE_ID_ATTRIBUTE}]`)).map((el) => {
    const r = el.getBoundingClientRect();
    return {
      id: el.getAttribute(PANE_ID_ATTRIBUTE) ?? '',
      left: r.left,
      top: r.top,
      right: r.right,
      bottom: r.bottom,
    };
  });
}

/** Moves keyboard focus from the focused pane to the one next to it in `direction`, if any. */
export function focusNeighbourPane(envId: string, fromPaneId: string, direction: FocusDirection): void {
  const next = neighbourInDirection(paneRectsOnScreen(), fromPaneId, direction);
  if (next) usePanes.getState().focusPane(envId, next);
}
