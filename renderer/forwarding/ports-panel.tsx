// The Ports panel of an environment: each port forward (the host's port, where it listens here, its
// state, the process that listens when known, how it was found, its label) with Open in browser,
// Open in an app tab, Copy URL, Change local port and Stop, *Forward a port…* to add one by hand, and
// the host's other listening ports, each with *Forward*.
import { useEffect, useState, type FormEvent } from 'react';
import { AppWindow, Copy, ExternalLink, Plus, SquarePen, Square } from 'lucide-react';
import type {
  EnvironmentView,
  ForwardOrigin,
  ForwardState,
  ForwardView,
  ListeningPortView,
  PortProcess,
} from '../../shared/ipc';
import { errorMessage } from '../../shared/error-message';
import { useUi } from '../app/ui-store';
import { invoke } from '../ipc/ipc-client';
import { DataTable, type DataColumn } from '../ui/data-table';
import { ErrorLine } from '../ui/error-line';
import { Field } from '../ui/field';
import { Modal } from '../ui/modal';
import { RowActions } from '../ui/row-actions';
import { useSubmit } from '../ui/use-submit';
import type { MenuEntry } from '../ui/popup-menu';
import {
  addForward,
  copyForwardUrl,
  forwardUrl,
  loadForwards,
  openForward,
  setForwardLocalPort,
  stopForward,
} from './forward-actions';
import { forwardsOf, useForwards } from './forwards-store';
import { previewForward } from './preview-actions';

const PORT_COLUMNS: DataColumn<string>[] = [
  { key: 'port', label: 'Port on the host', className: 'col-port' },
  { key: 'local', label: 'Local address', className: 'col-local' },
  { key: 'state', label: 'State', className: 'col-state' },
  { key: 'process', label: 'Process', className: 'col-process' },
  { key: 'foundBy', label: 'Found by', className: 'col-found-by' },
  { key: 'label', label: 'Label', className: 'col-label' },
];

const FOUND_BY: Record<ForwardOrigin, string> = {
  printedUrl: 'printed URL',
  listeningSocket: 'listening socket',
  byHand: 'by hand',
};

/** `vite (4242)`; one the host does not name (codex, another user's) is "unknown process". */
function processText(process: PortProcess | null | undefined): string {
  if (!process) return 'unknown process';
  return process.pid === null ? process.name : `${process.name} (${process.pid})`;
}

const STATE_BADGE: Record<ForwardState, { label: string; className: string }> = {
  forwarding: { label: 'forwarding', className: 'state-running' },
  nothingListening: { label: 'nothing listening', className: 'state-exit-error' },
  linkDown: { label: 'link down', className: 'state-exit-error' },
  failed: { label: 'failed', className: 'state-failed' },
};

export function PortsPanel({ env }: { env: EnvironmentView }) {
  const list = useForwards((s) => forwardsOf(s.byEnv, env.id));
  const openDialog = useUi((s) => s.openDialog);
  const [error, setError] = useState<string | null>(null);
  const [changing, setChanging] = useState<ForwardView | null>(null);
  const connected = env.link.kind === 'connected';
  const listening = useListening(env);
  useEffect(() => {
    // The list is kept up to date by forwards.changed; this fills it when the panel first shows.
    loadForwards(env.id).catch((e: unknown) => setError(errorMessage(e)));
  }, [env.id, connected]);
  const listenerOf = new Map(listening.map((l) => [l.port, l.process]));
  const act = (fn: () => Promise<unknown>) => {
    setError(null);
    fn().catch((e: unknown) => setError(errorMessage(e)));
  };
  return (
    <div className="panel padded" role="region" aria-label="Ports panel" tabIndex={0}>
      <div className="ports-toolbar">
        <button onClick={() => openDialog({ kind: 'forwardPort', envId: env.id })}>
          <Plus size={14} aria-hidden="true" />
          Forward a port…
        </button>
      </div>
      <ErrorLine message={error} />
      <DataTable label="Ports" className="ports-table" columns={PORT_COLUMNS}>
        {list.length === 0 && (
          <tr>
            <td colSpan={PORT_COLUMNS.length + 1} className="muted">
              No ports forwarded.
            </td>
          </tr>
        )}
        {list.map((f) => (
          <PortRow
            key={f.id}
            f={f}
            listener={f.process ?? listenerOf.get(f.port) ?? null}
            act={act}
            onChangeLocalPort={() => setChanging(f)}
          />
        ))}
      </DataTable>
      <DetectedOnHost env={env} listening={listening} forwarded={list} onError={setError} />
      {changing && <ChangeLocalPortDialog forward={changing} onClose={() => setChanging(null)} />}
    </div>
  );
}

/** How often the open panel asks for the host's listening ports. */
export const LISTENING_POLL_MS = 3_000;

/** The ports listening on the host, polled while the panel shows and the environment is connected. */
function useListening(env: EnvironmentView): ListeningPortView[] {
  const [listening, setListening] = useState<ListeningPortView[]>([]);
  const connected = env.link.kind === 'connected';
  useEffect(() => {
    if (!connected) {
      setListening([]);
      return;
    }
    let stopped = false;
    const ask = () =>
      invoke('forwards.listening', { envId: env.id }).then(
        (ports) => !stopped && setListening(ports),
        // A host that cannot say (the link just dropped) shows none until it can.
        () => !stopped && setListening([]),
      );
    void ask();
    const timer = setInterval(() => void ask(), LISTENING_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [env.id, connected]);
  return listening;
}

/**
 * The ports listening on the host that no forward covers, each with its process (when the host
 * says) and *Forward*. Nothing is forwarded from here by itself.
 */
function DetectedOnHost({
  env,
  listening,
  forwarded,
  onError,
}: {
  env: EnvironmentView;
  listening: ListeningPortView[];
  forwarded: ForwardView[];
  onError: (message: string) => void;
}) {
  const covered = new Set(forwarded.map((f) => f.port));
  const detected = listening.filter((l) => !covered.has(l.port));
  if (detected.length === 0) return null;
  return (
    <section aria-label="Detected on the host">
      <h3>Listening on the host, not forwarded</h3>
      <ul className="detected-list">
        {detected.map(({ port, process }) => (
          <li key={port} aria-label={`Port ${port} listening`}>
            <span className="mono">{port}</span>
            <span className="muted" title="Found by: listening socket">
              {processText(process)}
            </span>
            <button
              aria-label={`Forward port ${port}`}
              onClick={() =>
                addForward({ envId: env.id, port }).catch((e: unknown) => onError(errorMessage(e)))
              }
            >
              Forward
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PortRow({
  f,
  listener,
  act,
  onChangeLocalPort,
}: {
  f: ForwardView;
  /** The process it was found through, else the one the host says listens on its port. */
  listener: PortProcess | null;
  act: (fn: () => Promise<unknown>) => void;
  onChangeLocalPort: () => void;
}) {
  const name = `port ${f.port}`;
  const bound = forwardUrl(f) !== null;
  const open = {
    label: 'Open in browser',
    icon: ExternalLink,
    disabled: !bound,
    onSelect: () => act(() => openForward(f)),
  };
  const preview = {
    label: 'Open in an app tab',
    icon: AppWindow,
    disabled: !bound,
    onSelect: () => act(() => previewForward(f)),
  };
  const copy = {
    label: 'Copy URL',
    icon: Copy,
    disabled: !bound,
    onSelect: () => act(() => copyForwardUrl(f)),
  };
  const stop = { label: 'Stop', icon: Square, danger: true, onSelect: () => act(() => stopForward(f)) };
  const menu: MenuEntry[] = [
    open,
    preview,
    copy,
    { label: 'Change local port…', icon: SquarePen, onSelect: onChangeLocalPort },
    'separator',
    stop,
  ];
  const badge = STATE_BADGE[f.state];
  const target = f.host === 'localhost' ? String(f.port) : `${f.host}:${f.port}`;
  return (
    <tr aria-label={`Forward of ${name}`}>
      <td className="mono col-port">{target}</td>
      <td className="mono col-local" title={f.addresses.join(', ')}>
        {f.addresses[0] ?? '—'}
        {f.remapped && <span className="muted"> (remapped)</span>}
      </td>
      <td className="col-state" title={f.error ?? undefined}>
        <span className={`badge ${badge.className}`}>{badge.label}</span>
        {f.httpOnly && (
          <span
            className="muted"
            title="The server is a codex exec-server: plain HTTP is forwarded through its http/request, WebSockets are refused"
          >
            {' '}
            HTTP only (codex server)
          </span>
        )}
      </td>
      <td className="mono col-process">{listener ? processText(listener) : '—'}</td>
      <td className="col-found-by">{FOUND_BY[f.foundBy]}</td>
      <td className="col-label">
        {f.label ?? ''}
        {f.auto && (
          <span
            className="muted"
            title="Found by detection; stopped when its process ends or the port closes"
          >
            {' '}
            (auto)
          </span>
        )}
      </td>
      <td className="col-actions">
        <RowActions name={name} inline={[open, preview, copy, stop]} menu={menu} />
      </td>
    </tr>
  );
}

/** A labelled text box for a port number. */
function PortField(props: {
  id: string;
  label: string;
  error: string | null;
  value: string;
  onChange: (text: string) => void;
}) {
  return (
    <Field id={props.id} label={props.label} error={props.error}>
      <input
        id={props.id}
        className="mono"
        inputMode="numeric"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </Field>
  );
}

/** A port field's text as a number in range; null when it is not one. */
function parsePort(text: string, min: number): number | null {
  if (!/^\d+$/.test(text.trim())) return null;
  const n = Number(text.trim());
  return n >= min && n <= 65535 ? n : null;
}

/** *Forward a port…*: the host's port, an optional local port (0: any free one) and a label. */
export function ForwardPortDialog({ envId, onClose }: { envId: string; onClose: () => void }) {
  const [port, setPort] = useState('');
  const [localPort, setLocalPort] = useState('');
  const [label, setLabel] = useState('');
  const [portError, setPortError] = useState<string | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const { busy, error, run } = useSubmit(onClose);
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const target = parsePort(port, 1);
    const local = localPort.trim() === '' ? undefined : parsePort(localPort, 0);
    setPortError(target === null ? 'Enter a port from 1 to 65535.' : null);
    setLocalError(local === null ? 'Enter a port from 0 to 65535, or leave it empty.' : null);
    if (target === null || local === null) return;
    await run(() =>
      addForward({
        envId,
        port: target,
        ...(local !== undefined ? { localPort: local } : {}),
        ...(label.trim() ? { label: label.trim() } : {}),
      }),
    );
  }
  return (
    <Modal title="Forward a port" onClose={onClose}>
      <form onSubmit={onSubmit}>
        <div className="form-grid">
          <PortField
            id="forward-port"
            label="Port on the host"
            error={portError}
            value={port}
            onChange={setPort}
          />
          <PortField
            id="forward-local-port"
            label="Local port (empty: the same when free, 0: any)"
            error={localError}
            value={localPort}
            onChange={setLocalPort}
          />
          <Field id="forward-label" label="Label">
            <input id="forward-label" value={label} onChange={(e) => setLabel(e.target.value)} />
          </Field>
        </div>
        <ErrorLine message={error} />
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            Forward
          </button>
        </div>
      </form>
    </Modal>
  );
}

function ChangeLocalPortDialog({ forward, onClose }: { forward: ForwardView; onClose: () => void }) {
  const [localPort, setLocalPort] = useState(String(forward.boundPort ?? forward.localPort ?? ''));
  const [fieldError, setFieldError] = useState<string | null>(null);
  const { busy, error, run } = useSubmit(onClose);
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const local = parsePort(localPort, 0);
    setFieldError(local === null ? 'Enter a port from 0 to 65535 (0: any free one).' : null);
    if (local === null) return;
    await run(() => setForwardLocalPort(forward, local));
  }
  return (
    <Modal title={`Local port for port ${forward.port}`} onClose={onClose}>
      <form onSubmit={onSubmit}>
        <div className="form-grid">
          <PortField
            id="forward-new-local-port"
            label="Local port"
            error={fieldError}
            value={localPort}
            onChange={setLocalPort}
          />
        </div>
        <ErrorLine message={error} />
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            Change
          </button>
        </div>
      </form>
    </Modal>
  );
}
