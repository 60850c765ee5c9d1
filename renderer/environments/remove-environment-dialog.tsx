// Asks before removing an environment, optionally terminating its running processes, and names
// its editor tabs with unsaved changes, which removing closes. The terminate choice lives here, so
// each opening (and each environment) starts unticked.
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { EnvironmentView } from '../../shared/ipc';
import { removeEnvironment } from './environment-actions';
import { useEditors } from '../editor/editors-store';
import { ConfirmDialog } from '../ui/confirm-dialog';

export function RemoveEnvironmentDialog({ env, onClose }: { env: EnvironmentView; onClose: () => void }) {
  const [terminate, setTerminate] = useState(false);
  const unsaved = useEditors(
    useShallow((s) => s.tabs.filter((t) => t.envId === env.id && t.dirty).map((t) => t.name)),
  );
  return (
    <ConfirmDialog
      title={`Remove ${env.name}?`}
      confirmLabel="Remove"
      onClose={onClose}
      onConfirm={() => removeEnvironment(env.id, terminate)}
    >
      <p>The environment and its saved settings will be removed from Tether.</p>
      {unsaved.length > 0 && (
        <p role="alert">
          {unsaved.length === 1 ? 'A file has' : `${unsaved.length} files have`} unsaved changes that will be
          lost: {unsaved.join(', ')}.
        </p>
      )}
      <label>
        <input type="checkbox" checked={terminate} onChange={(e) => setTerminate(e.target.checked)} /> Also
        terminate its running processes
      </label>
    </ConfirmDialog>
  );
}
