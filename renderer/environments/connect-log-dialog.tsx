// *Show log*: the connect log of an SSH environment (ssh's own messages, the probe of the host, the
// install steps), oldest first, as the AppService keeps it (bounded per environment).
import { useEffect, useState } from 'react';
import { errorMessage } from '../../shared/error-message';
import { readConnectLog } from '../ssh/ssh-actions';
import { ErrorLine } from '../ui/error-line';
import { Modal } from '../ui/modal';

export function ConnectLogDialog({
  envId,
  envName,
  onClose,
}: {
  envId: string;
  envName: string;
  onClose: () => void;
}) {
  const [lines, setLines] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    readConnectLog(envId).then(
      (read) => live && setLines(read),
      (failure: unknown) => live && setError(errorMessage(failure)),
    );
    return () => {
      live = false;
    };
  }, [envId]);
  return (
    <Modal title={`Connect log of ${envName}`} onClose={onClose}>
      <ErrorLine message={error} />
      {lines && (
        <pre className="connect-log mono" aria-label="Connect log">
          {lines.length > 0 ? lines.join('\n') : 'Nothing logged yet.'}
        </pre>
      )}
      <div className="modal-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
