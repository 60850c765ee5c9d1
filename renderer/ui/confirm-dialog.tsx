// Asks before something destructive (removing an environment, deleting a file).
import { useState, type ReactNode } from 'react';
import { errorMessage } from '../../shared/error-message';
import { Modal } from './modal';
import { ErrorLine } from './error-line';

export function ConfirmDialog(props: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<void> | void;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal title={props.title} onClose={props.onClose}>
      {props.children}
      <ErrorLine message={error} />
      <div className="modal-actions">
        <button onClick={props.onClose}>Cancel</button>
        <button
          className="primary danger"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await props.onConfirm();
              props.onClose();
            } catch (e) {
              setError(errorMessage(e));
              setBusy(false);
            }
          }}
        >
          {props.confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
