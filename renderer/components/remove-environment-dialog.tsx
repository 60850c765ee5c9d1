// Asks before removing an environment, optionally terminating its running processes. The
// terminate choice lives here, so each opening (and each environment) starts unticked.
import { useState } from 'react';
import type { EnvironmentView } from '../../shared/ipc';
import { removeEnvironment } from '../actions/environment-actions';
import { ConfirmDialog } from './confirm-dialog';

export function RemoveEnvironmentDialog({ env, onClose }: { env: EnvironmentView; onClose: () => void }) {
  const [terminate, setTerminate] = useState(false);
  return (
    <ConfirmDialog
      title={`Remove ${env.name}?`}
      confirmLabel="Remove"
      onClose={onClose}
      onConfirm={() => removeEnvironment(env.id, terminate)}
    >
      <p>The environment and its saved settings will be removed from Tether.</p>
      <label>
        <input type="checkbox" checked={terminate} onChange={(e) => setTerminate(e.target.checked)} /> Also
        terminate its running processes
      </label>
    </ConfirmDialog>
  );
}
