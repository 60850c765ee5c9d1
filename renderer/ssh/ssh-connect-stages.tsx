// The stages of an SSH connect as a list — done, skipped (a reconnect over a live master does not
// sign in again; an installed server is not installed again), current (with its live detail, and
// a progress bar while installing), still to come — and a failure naming its stage with ssh's own
// message. The environment view adds *Retry* and *Show log*; the dialog's *Test connection* shows
// it bare.
import type { ReactNode } from 'react';
import type { SshConnectView } from '../../shared/ipc';
import { formatBytes } from '../ui/format';
import { SSH_STAGES, sshFailureText, sshStageLabel } from './ssh-stage-text';

export function SshConnectStages({ progress, actions }: { progress: SshConnectView; actions?: ReactNode }) {
  const reached = SSH_STAGES.indexOf(progress.failure?.stage ?? progress.stage);
  return (
    <section className="ssh-stages" aria-label="SSH connect stages">
      <ol>
        {SSH_STAGES.map((stage, index) => {
          const state =
            index < reached || (stage === 'connected' && index === reached)
              ? progress.passed.includes(stage)
                ? 'done'
                : 'skipped'
              : index === reached
                ? progress.failure
                  ? 'failed'
                  : 'current'
                : 'pending';
          return (
            <li
              key={stage}
              className={`ssh-stage ssh-stage-${state}`}
              aria-label={`${sshStageLabel(stage)}: ${state}`}
            >
              <span aria-hidden="true">{STATE_ICON[state]}</span> {sshStageLabel(stage)}
              {state === 'current' && progress.detail && <span className="hint"> — {progress.detail}</span>}
              {state === 'current' && stage === 'installing' && progress.bytesTotal ? (
                <InstallProgress sent={progress.bytesSent ?? 0} total={progress.bytesTotal} />
              ) : null}
            </li>
          );
        })}
      </ol>
      {progress.failure && (
        <p role="alert" className="error">
          {sshFailureText(progress.failure)}
        </p>
      )}
      {actions && <div className="modal-actions">{actions}</div>}
    </section>
  );
}

const STATE_ICON = { done: '✓', skipped: '–', current: '◌', failed: '✕', pending: '·' } as const;

function InstallProgress({ sent, total }: { sent: number; total: number }) {
  return (
    <span className="ssh-install">
      {' '}
      <progress aria-label="Install progress" max={total} value={Math.min(sent, total)} /> {formatBytes(sent)}{' '}
      of {formatBytes(total)}
    </span>
  );
}
