// "Uninstall Tether from this host…": names what will go from the SSH environment's host (the
// daemon with its sessions, the server versions, the Node runtimes, the run files), and only on
// "Uninstall" disconnects the environment and removes them; then lists what was removed.
import { useState } from 'react';
import type { EnvironmentView, SshUninstallReport } from '../../shared/ipc';
import { errorMessage } from '../../shared/error-message';
import { formatSshTarget } from '../../shared/ssh-target';
import { ErrorLine } from '../ui/error-line';
import { Modal } from '../ui/modal';
import { uninstallFromHost } from './ssh-actions';

export function UninstallHostDialog({ env, onClose }: { env: EnvironmentView; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [report, setReport] = useState<SshUninstallReport | null>(null);
  const host = env.settings.kind === 'ssh' ? formatSshTarget(env.settings) : env.name;
  if (report) {
    return (
      <Modal title={`Tether was removed from ${report.host}`} onClose={onClose}>
        {report.stoppedPids.length === 0 && report.removed.length === 0 ? (
          <p>Nothing of Tether was installed there.</p>
        ) : (
          <ul aria-label="Removed">
            {report.stoppedPids.map((pid) => (
              <li key={pid}>stopped Tether&apos;s daemon (pid {pid})</li>
            ))}
            {report.removed.map((path) => (
              <li key={path} className="mono">
                {path}
              </li>
            ))}
          </ul>
        )}
        <p>{env.name} is disconnected; connecting it again installs Tether again.</p>
        <div className="modal-actions">
          <button className="primary" onClick={onClose}>
            Close
          </button>
        </div>
      </Modal>
    );
  }
  return (
    <Modal title={`Uninstall Tether from ${host}?`} onClose={onClose}>
      <p>
        {env.name} will be disconnected, and on {host} Tether will:
      </p>
      <ul>
        <li>stop its daemon, ending every Tether session there and the processes running in them;</li>
        <li>
          remove <span className="mono">~/.tether/server</span> (its server versions) and{' '}
          <span className="mono">~/.tether/runtime</span> (the Node it uploaded, if any);
        </li>
        <li>
          remove the daemon&apos;s socket, pidfile and log from{' '}
          <span className="mono">/tmp/tether-&lt;uid&gt;</span>.
        </li>
      </ul>
      <p>Nothing else on the host is touched.</p>
      <ErrorLine message={error} />
      <div className="modal-actions">
        <button onClick={onClose}>Cancel</button>
        <button
          className="primary danger"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            setError(null);
            try {
              setReport(await uninstallFromHost(env.id));
            } catch (e) {
              setError(errorMessage(e));
            } finally {
              setBusy(false);
            }
          }}
        >
          {busy ? 'Uninstalling…' : 'Uninstall'}
        </button>
      </div>
    </Modal>
  );
}
