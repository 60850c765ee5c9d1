// The Processes panel's "Started by other clients": the processes that other clients with the
// same credential started on the environment's server (a codex agent, another window, a
// `tether run`), live, each with *Watch*, which opens it in a pane read-only. On a server without
// the extension (codex) it says the list is not available there.
import { useEffect, useState } from 'react';
import { Eye } from 'lucide-react';
import type { CommandOutput, EnvironmentView, OtherProcessView } from '../../shared/ipc';
import { errorMessage } from '../../shared/error-message';
import { invoke, onEvent } from '../ipc/ipc-client';
import { DataTable, type DataColumn } from '../ui/data-table';
import { ErrorLine } from '../ui/error-line';
import { formatDateTime } from '../ui/format';
import { RowActions } from '../ui/row-actions';
import { watchProcess } from './process-actions';

const OTHER_COLUMNS: DataColumn<string>[] = [
  { key: 'client', label: 'Client', className: 'col-client' },
  { key: 'command', label: 'Command', className: 'col-command' },
  { key: 'cwd', label: 'Directory', className: 'col-cwd' },
  { key: 'state', label: 'State', className: 'col-state' },
  { key: 'exit', label: 'Exit', className: 'col-exit' },
  { key: 'started', label: 'Started', className: 'col-started' },
];

type Others = CommandOutput<'processes.others'>;

export function OtherProcesses({ env }: { env: EnvironmentView }) {
  const connected = env.link.kind === 'connected';
  const [others, setOthers] = useState<Others | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!connected) return;
    let current = true;
    const load = () =>
      invoke('processes.others', { envId: env.id }).then(
        (result) => {
          if (!current) return;
          setOthers(result);
          setError(null);
        },
        (e: unknown) => current && setError(errorMessage(e)),
      );
    const off = onEvent('processes.othersChanged', ({ envId }) => {
      if (envId === env.id) void load();
    });
    void load();
    return () => {
      current = false;
      off();
    };
  }, [env.id, connected]);

  return (
    <section aria-label="Started by other clients" className="other-processes">
      <h3>Started by other clients</h3>
      <ErrorLine message={error} />
      {!connected && <p className="muted">Connect the environment to see them.</p>}
      {connected && others && !others.available && <p className="muted">{others.reason}</p>}
      {connected && others?.available && (
        <DataTable label="Processes of other clients" className="process-table" columns={OTHER_COLUMNS}>
          {others.processes.length === 0 && (
            <tr>
              <td colSpan={OTHER_COLUMNS.length + 1} className="muted">
                No other client with this credential runs anything here.
              </td>
            </tr>
          )}
          {others.processes.map((p) => (
            <OtherProcessRow key={`${p.sessionId}/${p.processId}`} env={env} p={p} onError={setError} />
          ))}
        </DataTable>
      )}
    </section>
  );
}

function OtherProcessRow({
  env,
  p,
  onError,
}: {
  env: EnvironmentView;
  p: OtherProcessView;
  onError: (message: string) => void;
}) {
  const command = p.argv.join(' ');
  const watch = {
    label: 'Watch',
    icon: Eye,
    onSelect: () => void watchProcess(env.id, p).catch((e: unknown) => onError(errorMessage(e))),
  };
  return (
    <tr aria-label={`${p.clientName} process ${command}`}>
      <td className="col-client">{p.clientName || 'unnamed client'}</td>
      <td className="mono col-command" title={command}>
        <span className="entry-text">{command}</span>
      </td>
      <td className="mono col-cwd" title={p.cwd}>
        <span className="entry-text">{p.cwd}</span>
      </td>
      <td className="col-state">
        <span className={`badge${p.state === 'running' ? ' state-running' : ''}`}>{p.state}</span>
      </td>
      <td className="col-exit">{p.exitCode ?? ''}</td>
      <td className="col-started">{formatDateTime(p.startedAt)}</td>
      <td className="col-actions">
        <RowActions name={command} inline={[watch]} menu={[watch]} />
      </td>
    </tr>
  );
}
