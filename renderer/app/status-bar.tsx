// The bottom bar: the active environment (its colour and name) and its link at a glance (status,
// RTT p50/p95, buffered output).
import { useEnvironments } from '../environments/environments-store';
import { useUi } from './ui-store';
import { formatBytes, formatMs } from '../ui/format';
import { StatusIndicator } from '../health/status-indicator';

export function StatusBar() {
  const activeEnvId = useUi((s) => s.activeEnvId);
  const env = useEnvironments((s) => (activeEnvId ? s.byId[activeEnvId] : undefined));
  return (
    <footer className="status-bar" aria-label="Status bar">
      {env ? (
        <>
          <span className="status-env">
            <span className="env-swatch" style={{ background: env.color }} aria-hidden="true" />
            {env.name}
          </span>
          <StatusIndicator env={env} />
          {env.health && (
            <span>
              RTT p50 {formatMs(env.health.rttP50Ms)} · p95 {formatMs(env.health.rttP95Ms)}
            </span>
          )}
          {env.health && env.health.reconnectCount > 0 && (
            <span>reconnects: {env.health.reconnectCount}</span>
          )}
          {env.bufferedBytes > 0 && <span>held output: {formatBytes(env.bufferedBytes)}</span>}
        </>
      ) : (
        <span>No environment selected</span>
      )}
    </footer>
  );
}
