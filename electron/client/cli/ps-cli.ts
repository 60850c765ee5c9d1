// `tether ps` and `tether attach`: the processes other clients of the same credential started on a
// server (a codex agent, another window, a `tether run`), listed one per line, and one of them
// followed from its first retained output, live, with our stdin and window size forwarded unless
// `--read-only`. Both need the server's `tetherSessionProcesses` extension; without it (codex)
// they say so and exit 255. Everything the server sent is escaped before it reaches the terminal.
import type { Command } from 'commander';
import type { ProcessSummary, SessionSummary } from '../../../shared/protocol';
import { errorMessage } from '../../../shared/error-message';
import { escapeForTerminal } from '../../../shared/terminal-text';
import { ClientError } from '../client-error';
import { RemoteExecServerClient } from '../link/remote-client';
import { terminalSshHooks } from '../transports/ssh/terminal-hooks';
import { forwardInterrupt, forwardResize, pumpInput, pumpOutput, RUN_FAILURE_EXIT_CODE } from './remote-run';
import { transportFrom, withWhereOptions, type WhereOptions } from './where-options';

/** Hex digits of the session id in a process's `tether ps` id: unique enough, short to type. */
const SESSION_ID_DIGITS = 8;

interface AttachOptions extends WhereOptions {
  readOnly?: boolean;
  verbose?: boolean;
}

/** A process of another session, as `tether ps` names it: `<session prefix>/<process id>`. */
export interface ListedProcess {
  id: string;
  session: SessionSummary;
  process: ProcessSummary;
}

/** Every process of the other sessions, oldest first. */
export function listedProcesses(sessions: SessionSummary[]): ListedProcess[] {
  return sessions
    .filter((session) => !session.current)
    .flatMap((session) =>
      session.processes.map((process) => ({
        id: `${session.sessionId.slice(0, SESSION_ID_DIGITS)}/${process.processId}`,
        session,
        process,
      })),
    )
    .sort((a, b) => a.process.startedAt - b.process.startedAt);
}

/** `12s`, `5m`, `3h`, `2d`. */
function age(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

function stateText(process: ProcessSummary): string {
  return process.state === 'running' ? 'running' : `exited(${process.exitCode ?? '?'})`;
}

/** One `tether ps` line: id, client, state, age, command. */
export function psLine(listed: ListedProcess, now: number): string {
  const clean = (text: string): string => escapeForTerminal(text).replace(/\s+/g, ' ');
  return [
    listed.id,
    clean(listed.session.clientName || '?'),
    stateText(listed.process),
    age(now - listed.process.startedAt),
    clean(listed.process.argv.join(' ')),
  ].join('\t');
}

function say(command: string, message: string): void {
  process.stderr.write(`tether ${command}: ${escapeForTerminal(message, { lineBreaks: true })}\n`);
}

function newClient(options: WhereOptions & { verbose?: boolean }): RemoteExecServerClient {
  return new RemoteExecServerClient({
    transport: transportFrom(options),
    ssh: terminalSshHooks(Boolean(options.verbose)),
  });
}

/** Ends `tether` with `code` once stdout/stderr drained. */
function exitWith(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

async function ps(options: WhereOptions): Promise<number> {
  let client: RemoteExecServerClient | null = null;
  try {
    client = newClient(options);
    const now = Date.now();
    for (const listed of listedProcesses(await client.listSessions()))
      process.stdout.write(`${psLine(listed, now)}\n`);
    return 0;
  } catch (error) {
    say('ps', errorMessage(error));
    return RUN_FAILURE_EXIT_CODE;
  } finally {
    await client?.close({ endSession: true });
  }
}

/** The process `id` names (`<session prefix>/<process id>`, as `tether ps` prints it). */
function resolve(id: string, sessions: SessionSummary[]): ListedProcess {
  const found = listedProcesses(sessions).filter((listed) => {
    const slash = id.indexOf('/');
    if (slash <= 0) return false;
    return (
      listed.session.sessionId.startsWith(id.slice(0, slash)) &&
      listed.process.processId === id.slice(slash + 1)
    );
  });
  if (found.length === 1) return found[0]!;
  throw new ClientError(
    'invalidArgument',
    found.length === 0
      ? `No process ${id} among the other clients' processes on this server (see tether ps).`
      : `${id} names more than one process; give more of its session id.`,
  );
}

async function attach(id: string, options: AttachOptions): Promise<number> {
  let client: RemoteExecServerClient | null = null;
  const cleanups: Array<() => void> = [];
  try {
    client = newClient(options);
    const target = resolve(id, await client.listSessions());
    const handle = await client.attachOtherProcess(target.session.sessionId, target.process.processId);
    // Raw before the retained output is written (see runRemote).
    if (!options.readOnly) {
      const interactive = target.process.tty && Boolean(process.stdin.isTTY);
      cleanups.push(
        pumpInput(handle, { interactive, verbose: Boolean(options.verbose), keepOpen: true }, (message) =>
          say('attach', message),
        ),
      );
      if (target.process.tty && process.stdout.isTTY) {
        handle.resize({ cols: process.stdout.columns, rows: process.stdout.rows }).catch(() => undefined);
        cleanups.push(forwardResize(handle));
      }
      if (!interactive) cleanups.push(forwardInterrupt(handle));
    }
    const output = pumpOutput(handle, (message) => say('attach', message));
    const code = await output.finished;
    await client.detachOtherProcess(handle);
    return code;
  } catch (error) {
    say('attach', errorMessage(error));
    return RUN_FAILURE_EXIT_CODE;
  } finally {
    for (const cleanup of cleanups.reverse()) cleanup();
    await client?.close();
  }
}

export function registerPsCommands(program: Command): void {
  withWhereOptions(
    program
      .command('ps')
      .description(
        'List the processes other clients with the same credential started on a server: id, client, state, age, command.',
      ),
  ).action(async (options: WhereOptions) => exitWith(await ps(options)));

  withWhereOptions(
    program
      .command('attach')
      .description(
        "Follow another client's process from its retained output on, forwarding input and window size; exit with its exit code.",
      )
      .argument('<id>', 'the process id as tether ps prints it'),
  )
    .option('--read-only', 'watch only: forward no input, size or signals')
    .option('--verbose', 'report undelivered input on stderr')
    .action(async (id: string, options: AttachOptions) => exitWith(await attach(id, options)));
}
