// Asks what to do with processes that closing panes would leave running unseen: terminate them,
// or keep them running in the background (they stay in Processes, where a pane can be reopened).
import { useState } from 'react';
import { errorMessage } from '../../shared/error-message';
import { closePanes, processesLeftWithoutPane, terminateAndClosePanes } from './pane-actions';
import { ErrorLine } from '../ui/error-line';
import { Modal } from '../ui/modal';

export function ClosePanesDialog(props: { envId: string; paneIds: string[]; onClose: () => void }) {
  const { envId, paneIds, onClose } = props;
  // Read once: the question is about what was running when the user asked to close.
  const [running] = useState(() => processesLeftWithoutPane(envId, paneIds));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const title =
    running.length === 1
      ? `${running[0]!.title} is still running`
      : `${running.length} processes are still running`;
  return (
    <Modal title={title} onClose={onClose}>
      <p>Closing {paneIds.length === 1 ? 'this pane' : 'these panes'} leaves no pane on:</p>
      <ul className="mono">
        {running.map((p) => (
          <li key={p.processId}>
            {p.title}
            {p.pid !== null ? ` (pid ${p.pid})` : ''}
          </li>
        ))}
      </ul>
      <p className="muted">Kept processes stay in Processes, where you can open a pane on them again.</p>
      <ErrorLine message={error} />
      <div className="modal-actions">
        <button onClick={onClose}>Cancel</button>
        <span className="spacer" />
        <button
          onClick={() => {
            closePanes(envId, paneIds);
            onClose();
          }}
        >
          Keep running in the background
        </button>
        <button
          className="primary danger"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await terminateAndClosePanes(envId, paneIds);
              onClose();
            } catch (e) {
              setError(errorMessage(e));
              setBusy(false);
            }
          }}
        >
          Terminate
        </button>
      </div>
    </Modal>
  );
}
