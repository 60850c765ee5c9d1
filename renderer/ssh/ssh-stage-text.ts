// How an SSH connect's stages read in the UI, once for every place that shows them (the status
// indicator, the environment view's stage list, the dialog's *Test connection*).
import { SshStage, type SshConnectView } from '../../shared/ipc';
import { formatBytes } from '../ui/format';

/** In order, as the contract lists them. */
export const SSH_STAGES: readonly SshStage[] = SshStage.options;

const STAGE_LABEL: Record<SshStage, string> = {
  connecting: 'connecting',
  authenticating: 'authenticating',
  checking: 'checking the host',
  installing: 'installing the server',
  starting: 'starting the server',
  connected: 'connected',
};

export function sshStageLabel(stage: SshStage): string {
  return STAGE_LABEL[stage];
}

/** "installing the server, 1.2 MiB of 40 MiB" — the stage with its live numbers. */
export function sshProgressText(view: SshConnectView): string {
  const label = STAGE_LABEL[view.stage];
  if (view.stage === 'installing' && view.bytesTotal) {
    return `${label}, ${formatBytes(view.bytesSent ?? 0)} of ${formatBytes(view.bytesTotal)}`;
  }
  return label;
}

/** "failed while authenticating: Permission denied (publickey)." */
export function sshFailureText(failure: NonNullable<SshConnectView['failure']>): string {
  return `failed while ${STAGE_LABEL[failure.stage]}: ${failure.message}`;
}
