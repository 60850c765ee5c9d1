// One process of `tether run`/`tether ssh`, wired to our terminal: its output to stdout/stderr
// (acknowledged as written), our stdin to it (raw under a tty, its end passed on), window size and
// signals forwarded, and the exit status it ends with. Disconnects are ridden through silently
// unless verbose.
import type { ConnectionState, ProcessEvent, ProcessHandle, TransportSpec } from '../api';
import { SpawnFailureKind, type EnvironmentInfo } from '../../../shared/protocol';
import { errorMessage } from '../../../shared/error-message';
import { isClientError } from '../client-error';
import { fromPathUri } from '../files/path-uri';
import { RemoteExecServerClient } from '../link/remote-client';
import { terminalSshHooks } from '../transports/ssh/terminal-hooks';
import { enterRawMode } from './raw-terminal';

/** Exit status when Tether itself fails (no connection, lost session), as ssh uses 255. */
export const RUN_FAILURE_EXIT_CODE = 255;
const SIGPIPE = 13;

/** What to run: fixed, or chosen from the environment once connected (the host's login shell). */
export type Program = string[] | ((info: EnvironmentInfo | null) => string[]);

export interface RemoteRunOptions {
  transport: TransportSpec;
  env: Record<string, string>;
  recoveryDeadlineMs: number | undefined;
  /** The output window to ask for; null: no flow control. */
  outputWindowBytes: number | null;
  tty: boolean;
  cwd?: string;
  verbose: boolean;
}

type Say = (message: string) => void;

/** Runs `program` and resolves with the exit status `tether run` should end with. */
export async function runRemote(program: Program, options: RemoteRunOptions, say: Say): Promise<number> {
  const client = new RemoteExecServerClient({
    transport: options.transport,
    recoveryDeadlineMs: options.recoveryDeadlineMs,
    log: options.verbose ? say : undefined,
    ssh: terminalSshHooks(options.verbose),
    // The next command to the same host within a few minutes signs in no more.
    sshSharedMaster: true,
  });
  let argv = typeof program === 'function' ? [] : program;
  if (options.verbose) {
    client.onStateChange((state) => {
      const text = describeState(state);
      if (text) say(text);
    });
  }
  const stdout = process.stdout;
  const cleanups: Array<() => void> = [];
  try {
    await client.connect();
    if (typeof program === 'function') argv = program(client.environmentInfo);
    const serverCwd = client.environmentInfo?.cwd;
    const handle = await client.startProcess({
      argv,
      cwd: options.cwd ?? (serverCwd ? fromPathUri(serverCwd) : '/'),
      env: options.env,
      inheritEnv: true,
      tty: options.tty,
      pipeStdin: true,
      size: stdout.isTTY ? { cols: stdout.columns, rows: stdout.rows } : undefined,
      ...(options.outputWindowBytes === null ? {} : { outputWindowBytes: options.outputWindowBytes }),
    });
    // The terminal goes raw before the first output is written: output held from before the
    // subscription is handed over at once, and would otherwise meet ONLCR still on.
    const interactive = options.tty && Boolean(process.stdin.isTTY);
    cleanups.push(pumpInput(handle, { interactive, verbose: options.verbose }, say));
    const output = pumpOutput(handle, say);
    cleanups.push(endOnBrokenPipe(handle, output.finish));
    // Cleanups run last first: no output is written once the broken pipe's handler is gone.
    cleanups.push(output.stop);
    if (options.tty && stdout.isTTY) cleanups.push(forwardResize(handle));
    // Without raw mode, ^C reaches us as SIGINT: pass it on instead of dying.
    if (!interactive) cleanups.push(forwardSignals(handle));
    return await output.finished;
  } catch (error) {
    const kind = spawnFailureKind(error);
    if (kind === SpawnFailureKind.notFound || kind === SpawnFailureKind.permissionDenied) {
      // Like a shell: 127 for a program that is not there, 126 for one that cannot be run.
      say(`cannot run ${argv[0]}: ${isClientError(error, 'rpc') ? (error.rpc?.message ?? '') : ''}`);
      return kind === SpawnFailureKind.notFound ? 127 : 126;
    }
    say(errorMessage(error));
    return RUN_FAILURE_EXIT_CODE;
  } finally {
    for (const cleanup of cleanups.reverse()) cleanup();
    // Nobody resumes a command's session: the daemon forgets it now rather than in hours.
    await client.close({ endSession: true });
  }
}

/**
 * The process's output to stdout/stderr, acknowledged once written; `finished` is the exit status,
 * and `stop` ends the copying (once the run is over: a reader that went away gets no more writes).
 */
export function pumpOutput(
  handle: ProcessHandle,
  say: Say,
): { finished: Promise<number>; finish: (code: number) => void; stop: () => void } {
  let finish: (code: number) => void = () => undefined;
  let stop: () => void = () => undefined;
  const finished = new Promise<number>((resolve) => {
    finish = resolve;
    let exitCode: number | null = null;
    let consumed = 0;
    stop = handle.subscribe((event: ProcessEvent) => {
      switch (event.kind) {
        case 'output': {
          const target = event.stream === 'stderr' ? process.stderr : process.stdout;
          const length = event.data.byteLength;
          target.write(event.data, () => {
            consumed += length;
            handle.acknowledge(consumed);
          });
          break;
        }
        case 'gap':
          // Lost output is never hidden, verbose or not.
          say(
            `output seq ${event.fromSeq}–${event.toSeq} was lost: the server no longer had it after a reconnect.`,
          );
          break;
        case 'exited':
          exitCode = event.exitCode;
          break;
        case 'closed':
          resolve(exitCode === null || exitCode < 0 ? RUN_FAILURE_EXIT_CODE : exitCode & 0xff);
          break;
        case 'failed':
          say(event.message);
          resolve(RUN_FAILURE_EXIT_CODE);
          break;
      }
    });
  });
  return { finished, finish, stop };
}

/** A reader that went away (`tether run … | head`) ends the run like SIGPIPE would. */
function endOnBrokenPipe(handle: ProcessHandle, finish: (code: number) => void): () => void {
  const onPipeError = (error: NodeJS.ErrnoException): void => {
    if (error.code !== 'EPIPE') return;
    handle.terminate().catch(() => undefined);
    finish(128 + SIGPIPE);
  };
  process.stdout.on('error', onPipeError);
  return () => process.stdout.off('error', onPipeError);
}

/**
 * Our stdin to the process (raw when interactive), and its end passed on unless `keepOpen` (a
 * watcher's input ending must not end another client's process); returns the cleanup.
 */
export function pumpInput(
  handle: ProcessHandle,
  options: { interactive: boolean; verbose: boolean; keepOpen?: boolean },
  say: Say,
): () => void {
  const stdin = process.stdin;
  let forwarding = true;
  const onData = (chunk: Buffer): void => {
    if (!forwarding) return;
    handle.write(chunk).then(
      (status) => {
        if (status === 'stdinClosed' || status === 'unknownProcess') forwarding = false;
      },
      (error: unknown) => {
        if (options.verbose) say(`input was not delivered: ${errorMessage(error)}`);
      },
    );
  };
  const leaveRawMode = options.interactive ? enterRawMode(stdin) : null;
  // The end of our input is the end of the process's (`tether run -- sort < file`); in raw
  // mode a terminal never ends, ^D is just a byte the remote terminal interprets.
  const onEnd = (): void => {
    if (!forwarding) return;
    forwarding = false;
    if (options.keepOpen) return;
    handle.closeStdin().catch((error: unknown) => {
      if (isClientError(error, 'unsupported')) say(`${errorMessage(error)} Stop it with Ctrl-C.`);
      else if (options.verbose) say(`the end of input was not delivered: ${errorMessage(error)}`);
    });
  };
  stdin.on('data', onData);
  if (!options.interactive) stdin.on('end', onEnd);
  stdin.resume();
  return () => {
    stdin.off('data', onData);
    stdin.off('end', onEnd);
    stdin.pause();
    leaveRawMode?.();
  };
}

export function forwardResize(handle: ProcessHandle): () => void {
  const stdout = process.stdout;
  const onResize = (): void => {
    handle.resize({ cols: stdout.columns, rows: stdout.rows }).catch(() => undefined);
  };
  stdout.on('resize', onResize);
  return () => stdout.off('resize', onResize);
}

function forwardSignals(handle: ProcessHandle): () => void {
  const onInt = (): void => void handle.signal('interrupt').catch(() => undefined);
  const onTerm = (): void => void handle.terminate().catch(() => undefined);
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onTerm);
  return () => {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
    process.off('SIGHUP', onTerm);
  };
}

/** ^C (not in raw mode) interrupts the process instead of ending us. */
export function forwardInterrupt(handle: ProcessHandle): () => void {
  const onInt = (): void => void handle.signal('interrupt').catch(() => undefined);
  process.on('SIGINT', onInt);
  return () => process.off('SIGINT', onInt);
}

/** `data.kind` of a failed process/start, if that is what `error` is. */
function spawnFailureKind(error: unknown): unknown {
  if (!isClientError(error, 'rpc')) return undefined;
  const data = error.rpc?.data;
  return data !== null && typeof data === 'object' ? (data as { kind?: unknown }).kind : undefined;
}

export function describeState(state: ConnectionState): string | null {
  switch (state.kind) {
    case 'reconnecting': {
      const held =
        state.sessionHeldUntil === null
          ? ''
          : `; session held until ${new Date(state.sessionHeldUntil).toISOString()}`;
      return `reconnecting (attempt ${state.attempt}): ${state.reason}${held}`;
    }
    case 'connected':
      return `connected (session ${state.sessionId})`;
    case 'failed':
      return `failed: ${state.reason}`;
    default:
      return null;
  }
}
