// The transfer queue: each upload/download with progress, speed, state, cancel and errors.
import type { TransferView } from '../../shared/ipc';
import { cancelTransfer, clearFinished } from '../actions/transfer-actions';
import { formatBytes, formatRate } from '../format';
import { useEnvironments } from '../stores/environments-store';
import { useTransfers } from '../stores/transfers-store';

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
  const active = t.state === 'queued' || t.state === 'running';
  const stateText = t.state === 'running' && waiting ? 'waiting for the link' : t.state;
  return (
    <tr aria-label={`${t.direction} ${t.name}`}>
      <td>{t.direction === 'upload' ? '↑' : '↓'}</td>
      <td className="mono" title={t.remotePath}>
        {t.name}
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
      </td>
    </tr>
  );
}
