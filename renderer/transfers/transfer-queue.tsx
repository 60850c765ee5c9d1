// The transfer queue: each upload/download with progress, speed, state, cancel and errors; a folder
// shows how many of its files are done and opens into the list of its files, each with its own.
import { Fragment, useState } from 'react';
import type { TransferFileView, TransferView } from '../../shared/ipc';
import { canRetry, cancelTransfer, clearFinished, retryTransfer } from './transfer-actions';
import { formatBytes, formatRate } from '../ui/format';
import { useEnvironments } from '../environments/environments-store';
import { useTransfers } from './transfers-store';

export function TransferQueue({ envId }: { envId: string }) {
  const byId = useTransfers((s) => s.byId);
  // A running transfer does not fail when the link drops: it waits, and the row says so.
  const reconnecting = useEnvironments((s) => s.byId[envId]?.link.kind === 'reconnecting');
  const list = Object.values(byId)
    .filter((t) => t.envId === envId)
    .sort((a, b) => (b.startedAt ?? Infinity) - (a.startedAt ?? Infinity));
  if (list.length === 0) return null;
  const anyFinished = list.some((t) => t.state === 'done' || t.state === 'failed' || t.state === 'cancelled');
  return (
    <section className="transfers" aria-label="Transfers">
      <div className="actions">
        <strong>Transfers</strong>
        <span className="spacer" />
        {anyFinished && (
          <button onClick={() => void clearFinished().catch(() => undefined)}>Clear finished</button>
        )}
      </div>
      <table>
        <tbody>
          {list.map((t) => (
            <TransferRow key={t.id} t={t} waiting={reconnecting} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

function TransferRow({ t, waiting }: { t: TransferView; waiting: boolean }) {
  const [open, setOpen] = useState(false);
  const active = t.state === 'queued' || t.state === 'running';
  const stateText = t.state === 'running' && waiting ? 'waiting for the link' : t.state;
  const files = t.files;
  return (
    <Fragment>
      <tr aria-label={`${t.direction} ${t.name}`}>
        <td>{t.direction === 'upload' ? '↑' : '↓'}</td>
        <td className="mono" title={t.remotePath}>
          {files ? (
            <button
              className="folder-toggle"
              aria-expanded={open}
              title={open ? 'Hide the files' : 'Show the files'}
              onClick={() => setOpen(!open)}
            >
              {open ? '▾' : '▸'} {t.name}/ <span className="muted">{fileCount(files)}</span>
            </button>
          ) : (
            t.name
          )}
        </td>
        <td>
          <progress
            max={t.totalBytes ?? 1}
            value={t.totalBytes === null ? undefined : t.doneBytes}
            aria-label={`Progress of ${t.name}`}
          />
        </td>
        <td>
          {formatBytes(t.doneBytes)} / {formatBytes(t.totalBytes)}
        </td>
        <td>{t.state === 'running' && !waiting ? formatRate(t.rate) : ''}</td>
        <td className={t.state === 'failed' ? 'error' : ''}>
          {stateText}
          {t.error ? `: ${t.error}` : ''}
        </td>
        <td>
          {active && <button onClick={() => void cancelTransfer(t.id).catch(() => undefined)}>Cancel</button>}
          {(t.state === 'failed' || t.state === 'cancelled') && canRetry(t.id) && (
            <button onClick={() => void retryTransfer(t.id).catch(() => undefined)}>Retry</button>
          )}
        </td>
      </tr>
      {files && open && (
        <tr>
          <td />
          <td colSpan={6}>
            <table className="transfer-files" aria-label={`Files of ${t.name}`}>
              <tbody>
                {files.map((f) => (
                  <FileRow key={f.path} f={f} />
                ))}
              </tbody>
            </table>
          </td>
        </tr>
      )}
    </Fragment>
  );
}

function FileRow({ f }: { f: TransferFileView }) {
  return (
    <tr aria-label={f.path}>
      <td className="mono">{f.path}</td>
      <td>
        {f.state !== 'skipped' && (
          <progress
            max={f.totalBytes || 1}
            value={f.totalBytes === 0 && f.state === 'done' ? 1 : f.doneBytes}
            aria-label={`Progress of ${f.path}`}
          />
        )}
      </td>
      <td>{f.state === 'skipped' ? '' : `${formatBytes(f.doneBytes)} / ${formatBytes(f.totalBytes)}`}</td>
      <td className={f.state === 'failed' ? 'error' : ''}>
        {f.state}
        {f.note ? `: ${f.note}` : ''}
      </td>
    </tr>
  );
}

/** "3 of 7 files", and how many were left out. */
function fileCount(files: TransferFileView[]): string {
  const skipped = files.filter((f) => f.state === 'skipped').length;
  const done = files.filter((f) => f.state === 'done').length;
  const text = `${done} of ${files.length - skipped} files`;
  return skipped > 0 ? `${text}, ${skipped} skipped` : text;
}
