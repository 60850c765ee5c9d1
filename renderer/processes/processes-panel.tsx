// Every process of an environment with its state, exit code, start time and ticking duration,
// the actions on it, and a form to start a new command. Under a shell with shell integration, the
// commands it ran (newest first).
import { useCallback, useRef, useState, type FormEvent } from 'react';
import { Ban, OctagonX, Pause, RotateCw, SquareTerminal, Trash2 } from 'lucide-react';
import type { EnvironmentView, ProcessView, ShellCommand } from '../../shared/ipc';
import { forgetProcess, openInPane, restartProcess, signalProcess, startProcess } from './process-actions';
import { errorMessage } from '../../shared/error-message';
import { formatDateTime, formatDuration } from '../ui/format';
import { processesOf, useProcesses } from './processes-store';
import { useNow } from '../ui/use-now';
import { ErrorLine } from '../ui/error-line';
import { contextMenuPoint, PopupMenu, type MenuEntry } from '../ui/popup-menu';
import { RowActions } from '../ui/row-actions';
import { DataTable, type DataColumn } from '../ui/data-table';
import { Field } from '../ui/field';
import { OtherProcesses } from './other-processes';

const PROCESS_COLUMNS: DataColumn<string>[] = [
  { key: 'command', label: 'Command', className: 'col-command' },
  { key: 'state', label: 'State', className: 'col-state' },
  { key: 'exit', label: 'Exit', className: 'col-exit' },
  { key: 'started', label: 'Started', className: 'col-started' },
  { key: 'duration', label: 'Duration', className: 'col-duration' },
];
import { exitText, ProcessStateBadge } from './process-badge';

export function ProcessesPanel({ env }: { env: EnvironmentView }) {
  const byKey = useProcesses((s) => s.byKey);
  const list = processesOf(byKey, env.id);
  const now = useNow();
  const [error, setError] = useState<string | null>(null);
  const act = (fn: () => Promise<unknown>) => {
    setError(null);
    fn().catch((e: unknown) => setError(errorMessage(e)));
  };
  return (
    // Focusable, so a keyboard user can scroll it when it overflows.
    <div className="panel padded" role="region" aria-label="Processes panel" tabIndex={0}>
      <StartProcessForm env={env} />
      <ErrorLine message={error} />
      <DataTable label="Processes" className="process-table" columns={PROCESS_COLUMNS}>
        {list.length === 0 && (
          <tr>
            <td colSpan={PROCESS_COLUMNS.length + 1} className="muted">
              No processes yet.
            </td>
          </tr>
        )}
        {list.flatMap((p) => [
          <ProcessRow key={p.processId} p={p} now={now} act={act} />,
          ...(p.commands?.length
            ? [<CommandHistory key={`${p.processId}-commands`} p={p} commands={p.commands} now={now} />]
            : []),
        ])}
      </DataTable>
      <OtherProcesses env={env} />
    </div>
  );
}

function ProcessRow({
  p,
  now,
  act,
}: {
  p: ProcessView;
  now: number;
  act: (fn: () => Promise<unknown>) => void;
}) {
  const running = p.state === 'running' || p.state === 'starting';
  const key = { envId: p.envId, processId: p.processId };
  const openPane = { label: 'Open pane', icon: SquareTerminal, onSelect: () => openInPane(key) };
  const restart = { label: 'Restart', icon: RotateCw, onSelect: () => act(() => restartProcess(key)) };
  const menu: MenuEntry[] = [
    openPane,
    ...(running
      ? [
          {
            label: 'Interrupt',
            icon: Pause,
            keys: 'Ctrl+C',
            onSelect: () => act(() => signalProcess(key, 'interrupt')),
          },
          { label: 'Terminate', icon: Ban, onSelect: () => act(() => signalProcess(key, 'terminate')) },
          {
            label: 'Kill',
            icon: OctagonX,
            danger: true,
            onSelect: () => act(() => signalProcess(key, 'kill')),
          },
        ]
      : []),
    restart,
    ...(!running
      ? [
          'separator' as const,
          { label: 'Remove', icon: Trash2, onSelect: () => act(() => forgetProcess(key)) },
        ]
      : []),
  ];
  const row = useRef<HTMLTableRowElement>(null);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  // The row itself cannot hold focus; its "More actions" button is the keyboard's way to the same menu.
  const closeMenu = useCallback(() => {
    setMenuAt(null);
    row.current?.querySelector<HTMLElement>('button[aria-haspopup="menu"]')?.focus();
  }, []);
  return (
    <tr
      ref={row}
      aria-label={`Process ${p.title}`}
      onContextMenu={(e) => {
        e.preventDefault();
        setMenuAt(contextMenuPoint(e));
      }}
    >
      <td className="mono col-command" title={p.argv.join(' ')}>
        <span className="entry-text">
          {p.title}
          {p.pid !== null && <span className="muted"> · pid {p.pid}</span>}
        </span>
      </td>
      <td className="col-state">
        <ProcessStateBadge process={p} />
      </td>
      <td className="col-exit">{exitText(p)}</td>
      <td className="col-started">{formatDateTime(p.startedAt)}</td>
      <td className="col-duration">{formatDuration((p.endedAt ?? now) - p.startedAt)}</td>
      <td className="col-actions">
        <RowActions name={p.title} inline={[openPane, restart]} menu={menu} />
        {menuAt && (
          <PopupMenu label={`Actions for ${p.title}`} items={menu} at={menuAt} onClose={closeMenu} />
        )}
      </td>
    </tr>
  );
}

/** The commands a shell ran, newest first, folded away until asked for. */
function CommandHistory({ p, commands, now }: { p: ProcessView; commands: ShellCommand[]; now: number }) {
  return (
    <tr className="command-history">
      <td colSpan={PROCESS_COLUMNS.length + 1}>
        <details>
          <summary>
            {commands.length === 1 ? '1 command' : `${commands.length} commands`} in {p.title}
          </summary>
          <table aria-label={`Commands of ${p.title}`}>
            <thead>
              <tr>
                <th scope="col">Command</th>
                <th scope="col">Folder</th>
                <th scope="col">Started</th>
                <th scope="col">Duration</th>
                <th scope="col">Exit</th>
              </tr>
            </thead>
            <tbody>
              {[...commands].reverse().map((c) => (
                <tr key={c.startedAt} className={c.exitCode ? 'command-failed' : undefined}>
                  <td className="mono">{c.line || '—'}</td>
                  <td className="mono muted">{c.cwd ?? '—'}</td>
                  <td>{formatDateTime(c.startedAt)}</td>
                  <td>{formatDuration((c.endedAt ?? now) - c.startedAt)}</td>
                  <td>{c.endedAt === null ? 'running' : (c.exitCode ?? '—')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </td>
    </tr>
  );
}

/** Parses `K=V` lines; returns the map or the first bad line. */
function parseEnvLines(text: string): { env: Record<string, string> } | { error: string } {
  const env: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) return { error: `"${line}" is not KEY=VALUE.` };
    env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return { env };
}

/** Splits an argv line on whitespace, honouring single and double quotes. */
function splitArgv(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:\\.|[^"\\])*)"|'([^']*)'|(\S+)/g;
  for (const m of line.matchAll(re))
    out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3] ?? ''));
  return out;
}

function StartProcessForm({ env }: { env: EnvironmentView }) {
  const [mode, setMode] = useState<'shell' | 'argv'>('shell');
  const [command, setCommand] = useState('');
  const [cwd, setCwd] = useState('');
  const [envText, setEnvText] = useState('');
  const [tty, setTty] = useState(true);
  const [openPane, setOpenPane] = useState(true);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!command.trim()) {
      setError('Enter a command.');
      return;
    }
    const parsed = parseEnvLines(envText);
    if ('error' in parsed) {
      setError(parsed.error);
      return;
    }
    const target = mode === 'shell' ? { shellLine: command } : { argv: splitArgv(command) };
    try {
      const view = await startProcess({
        envId: env.id,
        ...target,
        tty,
        ...(cwd.trim() ? { cwd: cwd.trim() } : {}),
        ...(Object.keys(parsed.env).length > 0 ? { env: parsed.env } : {}),
      });
      if (openPane) openInPane(view);
      setCommand('');
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  return (
    <form onSubmit={onSubmit} aria-label="Start a command">
      <fieldset>
        <legend>Start a command</legend>
        <div className="form-grid">
          <Field id="proc-mode" label="Run as">
            <select id="proc-mode" value={mode} onChange={(e) => setMode(e.target.value as 'shell' | 'argv')}>
              <option value="shell">Shell line ($SHELL -lc)</option>
              <option value="argv">Program and arguments</option>
            </select>
          </Field>
          <Field id="proc-command" label="Command">
            <input
              id="proc-command"
              className="mono"
              value={command}
              onChange={(e) => setCommand(e.target.value)}
            />
          </Field>
          <Field id="proc-cwd" label="Working directory">
            <input
              id="proc-cwd"
              className="mono"
              placeholder="default"
              value={cwd}
              onChange={(e) => setCwd(e.target.value)}
            />
          </Field>
          <Field id="proc-env" label="Environment (K=V lines)">
            <textarea id="proc-env" value={envText} onChange={(e) => setEnvText(e.target.value)} />
          </Field>
          <Field id="proc-tty" label="Terminal (tty)">
            <input id="proc-tty" type="checkbox" checked={tty} onChange={(e) => setTty(e.target.checked)} />
          </Field>
          <Field id="proc-open" label="Open in a pane">
            <input
              id="proc-open"
              type="checkbox"
              checked={openPane}
              onChange={(e) => setOpenPane(e.target.checked)}
            />
          </Field>
        </div>
        <ErrorLine message={error} />
        <div className="modal-actions">
          <button type="submit" className="primary">
            Start
          </button>
        </div>
      </fieldset>
    </form>
  );
}
