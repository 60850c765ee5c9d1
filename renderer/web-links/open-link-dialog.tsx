// Asks before opening a link a program printed (as VS Code's link protection does): the full URL
// and its host, then Open, Cancel, or always allow this host. Cancel has the focus, so Enter alone
// never opens anything. A link Tether never opens (not http or https) is explained instead.
import { useState } from 'react';
import { errorMessage } from '../../shared/error-message';
import { requireWebLink } from '../../shared/web-link';
import { openLink, trustHostAndOpen } from './link-actions';
import { useEnvironments } from '../environments/environments-store';
import { Modal } from '../ui/modal';
import { ErrorLine } from '../ui/error-line';

export function OpenLinkDialog({
  url,
  envId,
  onClose,
}: {
  url: string;
  envId: string | null;
  onClose: () => void;
}) {
  const envName = useEnvironments((s) => (envId ? s.byId[envId]?.name : undefined));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  let link: URL;
  try {
    link = requireWebLink(url);
  } catch (refusal) {
    return (
      <Modal title="Link not opened" onClose={onClose}>
        <p role="alert">{errorMessage(refusal)}</p>
        <div className="modal-actions">
          <button onClick={onClose}>Close</button>
        </div>
      </Modal>
    );
  }
  const run = (action: () => Promise<void>) => async () => {
    setBusy(true);
    try {
      await action();
      onClose();
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  return (
    <Modal title="Open this link?" onClose={onClose}>
      <p>
        A program {envName ? `in ${envName} ` : ''}printed this link. Open it only if you trust where it goes.
      </p>
      <p className="link-url">{link.href}</p>
      <p>
        Host: <strong>{link.host}</strong>
      </p>
      <ErrorLine message={error} />
      <div className="modal-actions">
        <button onClick={onClose}>Cancel</button>
        <button disabled={busy} onClick={run(() => trustHostAndOpen(link.href))}>
          Always allow {link.host}
        </button>
        <button className="primary" disabled={busy} onClick={run(() => openLink(link.href))}>
          Open
        </button>
      </div>
    </Modal>
  );
}
