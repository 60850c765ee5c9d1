// Every environment with its colour, name and live link status; selecting one shows it.
import { Plus, RefreshCw } from 'lucide-react';
import { useEnvironments } from '../stores/environments-store';
import { useUi } from '../stores/ui-store';
import { reconnectAll } from '../actions/environment-actions';
import { StatusIndicator } from './status-indicator';

export function Sidebar() {
  const { byId, order } = useEnvironments();
  const activeEnvId = useUi((s) => s.activeEnvId);
  const selectEnv = useUi((s) => s.selectEnv);
  const openDialog = useUi((s) => s.openDialog);
  return (
    <nav className="sidebar" aria-label="Environments">
      <ul>
        {order.map((id) => {
          const env = byId[id];
          if (!env) return null;
          return (
            <li key={id}>
              <button
                className="env-item"
                aria-current={id === activeEnvId}
                aria-label={`Environment ${env.name}`}
                onClick={() => selectEnv(id)}
              >
                <span className="env-swatch" style={{ background: env.color }} aria-hidden="true" />
                <span className="env-card">
                  <span className="env-name">{env.name}</span>
                  <StatusIndicator env={env} />
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      <div className="actions">
        <button onClick={() => openDialog({ kind: 'addEnvironment' })}>
          <Plus size={14} aria-hidden="true" />
          Add environment
        </button>
        <button onClick={() => void reconnectAll().catch(() => undefined)}>
          <RefreshCw size={14} aria-hidden="true" />
          Reconnect all
        </button>
      </div>
    </nav>
  );
}
