// Decides what deserves a notification as events arrive — a process no pane shows ended, a transfer
// finished or failed, a link failed — and shows it as a toast, plus an OS notification in the
// desktop app while its window is not focused.
import type { EnvironmentView, ProcessView, TransferView } from '../../shared/ipc';
import { hostKind } from '../ipc/host-kind';
import { envPanes, showsProcess, usePanes } from '../panes/panes-store';
import { useToasts, type Toast } from '../ui/toasts-store';

function notify(level: Toast['level'], message: string): void {
  useToasts.getState().show(level, message);
  // Electron shows renderer Notifications as OS notifications; a browser tab would need permission.
  if (hostKind() === 'electron' && !document.hasFocus() && typeof Notification === 'function')
    new Notification('Tether', { body: message });
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
