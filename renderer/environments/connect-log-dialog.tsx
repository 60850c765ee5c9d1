// *Show log*: the connect log of an SSH environment (ssh's own messages, the probe of the host, the
// install steps), oldest first, as the AppService keeps it (bounded per environment). Wide, since
// ssh's lines are long; opened at the end, where the latest attempt and its failure are; copyable
// whole, to paste into a bug report or a message to the host's admin.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
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
  const [copied, setCopied] = useState(false);
  const log = useRef<HTMLPreElement>(null);
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
  useLayoutEffect(() => {
    const pre = log.current;
    if (pre) pre.scrollTop = pre.scrollHeight;
  }, [lines]);
  const copy = () => {
    setError(null);
    navigator.clipboard.writeText((lines ?? []).join('\n')).then(
      () => setCopied(true),
      (failure: unknown) => setError(`Clipboard: ${errorMessage(failure)}`),
    );
  };
  return (
    <Modal title={`Connect log of ${envName}`} onClose={onClose} wide>
      <ErrorLine message={error} />
      {lines && (
        // Focusable, so the keyboard can scroll it.
        <pre ref={log} className="connect-log mono" aria-label="Connect log" tabIndex={0}>
          {lines.length > 0 ? lines.join('\n') : 'Nothing logged yet.'}
        </pre>
      )}
      <div className="modal-actions">
        <span className="muted" role="status">
          {copied ? 'Copied.' : ''}
        </span>
        <button type="button" disabled={!lines || lines.length === 0} onClick={copy}>
          Copy
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
