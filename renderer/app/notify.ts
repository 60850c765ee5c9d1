// Decides what deserves a notification as events arrive — a process no pane shows ended, a long
// shell command ended out of sight, a transfer finished or failed, a link failed — and shows it as
// a toast, plus an OS notification in the desktop app while its window is not focused (and in a
// browser tab the user allowed to notify).
import type { EnvironmentView, ProcessView, TransferView } from '../../shared/ipc';
import { hostKind } from '../ipc/host-kind';
import { envPanes, leaves, processIdOf, showsProcess, usePanes } from '../panes/panes-store';
import { useUi } from './ui-store';
import { useToasts, type Toast } from '../ui/toasts-store';

function notify(level: Toast['level'], message: string): void {
  useToasts.getState().show(level, message);
  // Electron shows renderer Notifications as OS notifications; a browser tab would need permission.
  if (document.hasFocus() || typeof Notification !== 'function') return;
  if (hostKind() === 'electron' || Notification.permission === 'granted')
    new Notification('Tether', { body: message });
}

/** A shell command that ran at least this long tells the user it ended, when they are elsewhere. */
export const LONG_COMMAND_MS = 10_000;

/** Whether `view`'s process is in the focused pane of the environment and tab on screen. */
function inFocusedPane(view: ProcessView): boolean {
  if (useUi.getState().activeEnvId !== view.envId) return false;
  const env = envPanes(usePanes.getState().byEnv, view.envId);
  const tab = env.tabs.find((t) => t.id === env.activeTabId);
  const leaf = tab ? leaves(tab.root).find((l) => l.id === tab.focusedPaneId) : undefined;
  return !!leaf && processIdOf(leaf) === view.processId;
}

/** A shell's command ended (shell integration): worth saying when it was long and out of sight. */
export function commandChanged(before: ProcessView | undefined, after: ProcessView): void {
  const was = before?.commands?.at(-1);
  const now = after.commands?.at(-1);
  if (!was || !now || was.endedAt !== null || now.startedAt !== was.startedAt || now.endedAt === null) return;
  if (now.endedAt - now.startedAt < LONG_COMMAND_MS) return;
  if (document.hasFocus() && inFocusedPane(after)) return;
  const how = now.exitCode === 0 ? 'finished' : `failed (exit ${now.exitCode ?? '?'})`;
  notify(now.exitCode === 0 ? 'info' : 'error', `${now.line || 'A command'} ${how} in ${after.title}.`);
}

const ended = (p: ProcessView | undefined) =>
  !!p && (p.state === 'exited' || p.state === 'failed' || p.state === 'lost');

export function processChanged(before: ProcessView | undefined, after: ProcessView): void {
  if (!before || ended(before) || !ended(after)) return;
  if (showsProcess(envPanes(usePanes.getState().byEnv, after.envId), after.processId)) return;
  const how =
    after.state === 'exited'
      ? `exited with code ${after.exitCode ?? '?'}`
      : after.state === 'lost'
        ? 'was lost'
        : 'failed';
  notify(after.state === 'exited' && after.exitCode === 0 ? 'info' : 'error', `${after.title} ${how}.`);
}

export function transferChanged(before: TransferView | undefined, after: TransferView): void {
  if (before?.state === after.state) return;
  const what = after.direction === 'upload' ? 'Upload' : 'Download';
  if (after.state === 'done') notify('info', `${what} of ${after.name} finished.`);
  if (after.state === 'failed')
    notify('error', `${what} of ${after.name} failed${after.error ? `: ${after.error}` : '.'}`);
}

export function environmentChanged(before: EnvironmentView | undefined, after: EnvironmentView): void {
  if (after.link.kind === 'failed' && before?.link.kind !== 'failed')
    notify('error', `The link to ${after.name} failed. Its view says why.`);
}
