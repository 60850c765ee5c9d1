// Link health of one environment: live RTT chart, p50/p95, last contact, thresholds, reconnect
// count, the timeline of state changes, and what the server says about itself.
import type { EnvironmentView } from '../../shared/ipc';
import { formatClock, formatDuration, formatMs } from '../ui/format';
import { timelineRows } from './health-timeline';
import { serverInfoRows } from './server-info';
import { useNow } from '../ui/use-now';
import { RttChart } from './rtt-chart';
import { StatusIndicator } from './status-indicator';

export function HealthPanel({ env }: { env: EnvironmentView }) {
  const now = useNow();
  const h = env.health;
  return (
    // Focusable, so a keyboard user can scroll it when it overflows.
    <div className="panel padded" role="region" aria-label="Health" tabIndex={0}>
      <div>
        <StatusIndicator env={env} />
      </div>
      {h ? (
        <>
          <div className="health-grid">
            {/* The last sample is history once the link is down: "now" would be stale. */}
            <Stat label="RTT now" value={env.link.kind === 'connected' ? formatMs(h.lastRttMs) : '—'} />
            <Stat label="RTT p50" value={formatMs(h.rttP50Ms)} />
            <Stat label="RTT p95" value={formatMs(h.rttP95Ms)} />
            <Stat
              label="Last contact"
              value={h.lastContactAt === null ? '—' : `${formatDuration(now - h.lastContactAt)} ago`}
            />
            <Stat label="Reconnects" value={String(h.reconnectCount)} />
            <Stat
              label="Thresholds"
              value={`${formatMs(h.thresholds.degradedRttMs)} / ${formatDuration(h.thresholds.stalledAfterMs)}`}
              hint="degraded above this RTT / stalled after this silence"
            />
          </div>
          <RttChart health={h} />
          <section aria-label="Timeline">
            <h3>Timeline</h3>
            <ol className="mono" reversed>
              {timelineRows(h.history)
                .reverse()
                .map((row) => (
                  <li key={`${row.at}-${row.state}`}>
                    {formatClock(row.at)} {row.state}
                    {row.count > 1 ? ` ×${row.count} (until ${formatClock(row.lastAt)})` : ''}
                    {row.reason ? ` — ${row.reason}` : ''}
                  </li>
                ))}
            </ol>
          </section>
        </>
      ) : (
        <p className="muted">No health data yet: the environment has not connected.</p>
      )}
      <section aria-label="Server">
        <h3>Server</h3>
        {env.info ? (
          <table className="wrap">
            <tbody>
              {serverInfoRows(env.info).map((row) => (
                <tr key={row.label}>
                  <th>{row.label}</th>
                  <td className="mono">{row.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="muted">Not known yet.</p>
        )}
      </section>
    </div>
  );
}

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="stat" title={hint}>
      <div className="muted">{label}</div>
      <div className="value">{value}</div>
    </div>
  );
}
