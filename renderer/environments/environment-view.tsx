// The selected environment: its header (status, reconnect, edit, remove) and its panels.
import { Pencil, Plug, RefreshCw, ScrollText, Trash2, Unplug } from 'lucide-react';
import type { EnvironmentView as Env } from '../../shared/ipc';
import { reconnectNow, setConnected } from './environment-actions';
import { panelOf, useUi, type EnvPanel } from '../app/ui-store';
import { ContainerState, failedByContainer } from '../containers/container-state';
import { ExpiredSession } from './expired-session';
import { FileBrowser } from '../files/file-browser';
import { FindInFiles } from '../search/find-in-files';
import { HealthPanel } from '../health/health-panel';
import { LinkFailure } from '../health/link-failure';
import { offersReconnectNow } from '../health/link-status';
import { ProcessesPanel } from '../processes/processes-panel';
import { PortsPanel } from '../forwarding/ports-panel';
import { SshConnectStages } from '../ssh/ssh-connect-stages';
import { StatusIndicator } from '../health/status-indicator';
import { TerminalsPanel } from '../terminals/terminals-panel';
import { UnencryptedNote } from './unencrypted-note';

const PANELS: { id: EnvPanel; label: string }[] = [
  { id: 'terminals', label: 'Terminals' },
  { id: 'processes', label: 'Processes' },
  { id: 'ports', label: 'Ports' },
  { id: 'files', label: 'Files' },
  { id: 'search', label: 'Search' },
  { id: 'health', label: 'Health' },
];

export function EnvironmentView({ env }: { env: Env }) {
  const panel = useUi((s) => panelOf(s.panelByEnv, env.id));
  const showPanel = useUi((s) => s.showPanel);
  const openDialog = useUi((s) => s.openDialog);
  const ignore = () => undefined;
  return (
    <>
      <div className="env-header">
        <span className="env-swatch" style={{ background: env.color }} aria-hidden="true" />
        <h2>{env.name}</h2>
        <StatusIndicator env={env} />
        <span className="spacer" />
        {offersReconnectNow(env) && (
          <button onClick={() => void reconnectNow(env.id).catch(ignore)}>
            <RefreshCw size={14} aria-hidden="true" />
            Reconnect now
          </button>
        )}
        <button onClick={() => void setConnected(env.id, !env.enabled).catch(ignore)}>
          {env.enabled ? <Unplug size={14} aria-hidden="true" /> : <Plug size={14} aria-hidden="true" />}
          {env.enabled ? 'Disconnect' : 'Connect'}
        </button>
        {env.sshConnect !== undefined && (
          <button onClick={() => openDialog({ kind: 'connectLog', id: env.id })}>
            <ScrollText size={14} aria-hidden="true" />
            Show log
          </button>
        )}
        <button onClick={() => openDialog({ kind: 'editEnvironment', id: env.id })}>
          <Pencil size={14} aria-hidden="true" />
          Edit
        </button>
        {env.settings.kind !== 'local' && (
          <button className="danger" onClick={() => openDialog({ kind: 'removeEnvironment', id: env.id })}>
            <Trash2 size={14} aria-hidden="true" />
            Remove
          </button>
        )}
      </div>
      {failedByContainer(env) ? <ContainerState env={env} /> : <LinkFailure env={env} />}
      <UnencryptedNote settings={env.settings} />
      {env.sshConnect &&
        env.enabled &&
        env.link.kind !== 'connected' &&
        env.link.kind !== 'idle' &&
        !failedByContainer(env) && (
          <SshConnectStages
            progress={env.sshConnect}
            actions={
              env.sshConnect.failure && (
                <>
                  <button onClick={() => void reconnectNow(env.id).catch(ignore)}>Retry</button>
                  <button onClick={() => openDialog({ kind: 'connectLog', id: env.id })}>Show log</button>
                </>
              )
            }
          />
        )}
      <ExpiredSession env={env} />
      <div className="tabs" role="tablist" aria-label="Environment panels">
        {PANELS.map((p) => (
          <button
            key={p.id}
            role="tab"
            aria-selected={panel === p.id}
            onClick={() => showPanel(env.id, p.id)}
          >
            {p.label}
          </button>
        ))}
      </div>
      {panel === 'terminals' && <TerminalsPanel env={env} />}
      {panel === 'processes' && <ProcessesPanel env={env} />}
      {panel === 'ports' && <PortsPanel env={env} />}
      {panel === 'files' && <FileBrowser env={env} />}
      {panel === 'search' && <FindInFiles env={env} />}
      {panel === 'health' && <HealthPanel env={env} />}
    </>
  );
}
