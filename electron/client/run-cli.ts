// `tether run`: runs one process in an environment through the reconnecting client, wiring it to
// our terminal: output to stdout/stderr, stdin forwarded (raw, with window size, under --tty), and
// our exit code is the process's. Disconnects are ridden through silently unless --verbose.
import type { Command } from 'commander';
import type { ConnectionState, ProcessEvent, TransportSpec } from './api';
import { SpawnFailureKind } from '../../shared/protocol';
import { ClientError, isClientError } from './client-error';
import { fromPathUri } from './path-uri';
import { RemoteExecServerClient } from './remote-client';
import { errorMessage } from '../../shared/error-message';

/** Exit status when Tether itself fails (no connection, lost session), as ssh uses 255. */
export const RUN_FAILURE_EXIT_CODE = 255;
const SIGPIPE = 13;
/** Output window requested from servers that support flow control. */
const RUN_OUTPUT_WINDOW_BYTES = 4 * 1_048_576;

interface RunOptions {
  server?: string;
  stdio?: string;
  tokenFile?: string;
  tlsFingerprint?: string;
  tty?: boolean;
  cwd?: string;
  env: string[];
  verbose?: boolean;
  recoveryDeadline?: string;
}

/** `data.kind` of a failed process/start, if that is what `error` is. */
function spawnFailureKind(error: unknown): unknown {
  if (!isClientError(error, 'rpc')) return undefined;
  const data = error.rpc?.data;
  return data !== null && typeof data === 'object' ? (data as { kind?: unknown }).kind : undefined;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function parseEnv(pairs: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new ClientError('invalidArgument', `--env expects NAME=VALUE, got "${pair}".`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}

/** Where to connect, from the options `tether run` and `tether cp` share. */
export function transportFrom(
  options: Pick<RunOptions, 'server' | 'stdio' | 'tokenFile' | 'tlsFingerprint'>,
): TransportSpec {
  if (options.server && options.stdio) {
    throw new ClientError('invalidArgument', 'Give either --server or --stdio, not both.');
  }
  if (options.server) {
    if (!/^wss?:\/\//.test(options.server)) {
      throw new ClientError(
        'invalidArgument',
        `--server expects a ws:// or wss:// URL, got "${options.server}".`,
      );
    }
    return {
      kind: 'ws',
      url: options.server,
      tokenFile: options.tokenFile,
      ...(options.tlsFingerprint !== undefined ? { tlsFingerprint: options.tlsFingerprint } : {}),
    };
  }
  if (options.tlsFingerprint !== undefined) {
    throw new ClientError('invalidArgument', '--tls-fingerprint needs a wss:// --server URL.');
  }
  if (options.stdio) return { kind: 'stdio', command: ['/bin/sh', '-c', options.stdio] };
  throw new ClientError('invalidArgument', 'Say where to run: --server ws://HOST:PORT or --stdio "COMMAND".');
}

function describeState(state: ConnectionState): string | null {
  switch (state.kind) {
    case 'reconnecting':
      return `reconnecting (attempt ${state.attempt}): ${state.reason}`;
    case 'connected':
      return `connected (session ${state.sessionId})`;
    case 'failed':
      return `failed: ${state.reason}`;
    default:
      return null;
  }
}

/** Runs `argv` and resolves with the exit status `tether run` should end with. */
async function runRemote(argv: string[], options: RunOptions): Promise<number> {
  const say = (message: string): void => {
    process.stderr.write(`tether: ${message}\n`);
  };
  let transport: TransportSpec;
  let env: Record<string, string>;
  let deadline: number | undefined;
  try {
    transport = transportFrom(options);
    env = parseEnv(options.env);
    deadline = options.recoveryDeadline === undefined ? undefined : Number(options.recoveryDeadline) * 1000;
    if (deadline !== undefined && !(deadline > 0)) {
      throw new ClientError('invalidArgument', '--recovery-deadline expects a positive number of seconds.');
    }
  } catch (error) {
    say((error as Error).message);
    return RUN_FAILURE_EXIT_CODE;
  }
  const client = new RemoteExecServerClient({
    transport,
    recoveryDeadlineMs: deadline,
    log: options.verbose ? say : undefined,
  });
  if (options.verbose) {
    client.onStateChange((state) => {
      const text = describeState(state);
      if (text) say(text);
    });
  }

  const stdin = process.stdin;
  const stdout = process.stdout;
  const interactive = Boolean(options.tty && stdin.isTTY);
  const cleanups: Array<() => void> = [];
  try {
    await client.connect();
    const serverCwd = client.environmentInfo?.cwd;
    const cwd = options.cwd ?? (serverCwd ? fromPathUri(serverCwd) : '/');
    const size = stdout.isTTY ? { cols: stdout.columns, rows: stdout.rows } : undefined;
    const handle = await client.startProcess({
      argv,
      cwd,
      env,
      inheritEnv: true,
      tty: Boolean(options.tty),
      pipeStdin: true,
      size,
      outputWindowBytes: RUN_OUTPUT_WINDOW_BYTES,
    });

    let finish: (code: number) => void = () => undefined;
    const finished = new Promise<number>((resolve) => {
      finish = resolve;
      let exitCode: number | null = null;
      let consumed = 0;
      handle.subscribe((event: ProcessEvent) => {
        switch (event.kind) {
          case 'output': {
            const target = event.stream === 'stderr' ? process.stderr : stdout;
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

    // A reader that went away (`tether run … | head`) ends the run like SIGPIPE would.
    const onPipeError = (error: NodeJS.ErrnoException): void => {
      if (error.code !== 'EPIPE') return;
      handle.terminate().catch(() => undefined);
      finish(128 + SIGPIPE);
    };
    stdout.on('error', onPipeError);
    cleanups.push(() => stdout.off('error', onPipeError));

    let forwarding = true;
    const onData = (chunk: Buffer): void => {
      if (!forwarding) return;
      handle.write(chunk).then(
        (status) => {
          if (status === 'stdinClosed' || status === 'unknownProcess') forwarding = false;
        },
        (error: unknown) => {
          if (options.verbose) say(`input was not delivered: ${(error as Error).message}`);
        },
      );
    };
    if (interactive) {
      stdin.setRawMode(true);
      cleanups.push(() => stdin.setRawMode(false));
    }
    stdin.on('data', onData);
    stdin.resume();
    cleanups.push(() => {
      stdin.off('data', onData);
      stdin.pause();
    });

    if (options.tty && stdout.isTTY) {
      const onResize = (): void => {
        handle.resize({ cols: stdout.columns, rows: stdout.rows }).catch(() => undefined);
      };
      stdout.on('resize', onResize);
      cleanups.push(() => stdout.off('resize', onResize));
    }
    if (!interactive) {
      // Without raw mode, ^C reaches us as SIGINT: pass it on instead of dying.
      const onInt = (): void => void handle.signal('interrupt').catch(() => undefined);
      const onTerm = (): void => void handle.terminate().catch(() => undefined);
      process.on('SIGINT', onInt);
      process.on('SIGTERM', onTerm);
      process.on('SIGHUP', onTerm);
      cleanups.push(() => {
        process.off('SIGINT', onInt);
        process.off('SIGTERM', onTerm);
        process.off('SIGHUP', onTerm);
      });
    }
    return await finished;
  } catch (error) {
    const kind = spawnFailureKind(error);
    if (kind === SpawnFailureKind.notFound || kind === SpawnFailureKind.permissionDenied) {
      // Like a shell: 127 for a program that is not there, 126 for one that cannot be run.
      say(`cannot run ${argv[0]}: ${(error as ClientError).rpc?.message ?? ''}`);
      return kind === SpawnFailureKind.notFound ? 127 : 126;
    }
    say(errorMessage(error));
    return RUN_FAILURE_EXIT_CODE;
  } finally {
    for (const cleanup of cleanups.reverse()) cleanup();
    await client.close();
  }
}

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('Run a command in an environment, riding through network drops.')
    .option('--server <url>', 'exec-server WebSocket URL, ws://HOST:PORT or wss://HOST:PORT')
    .option('--token-file <file>', 'file holding the bearer token for --server')
    .option(
      '--tls-fingerprint <sha256>',
      "pin the wss:// server certificate's SHA-256 fingerprint (instead of CA validation)",
    )
    .option('--stdio <command>', 'shell command whose stdin/stdout speak the protocol (no reconnect)')
    .option('--tty', 'run under a pseudo-terminal (raw input and window size when on a terminal)')
    .option('--cwd <path>', "working directory on the server (default: the server's)")
    .option('--env <NAME=VALUE>', 'set a variable on top of the server environment (repeatable)', collect, [])
    .option('--recovery-deadline <seconds>', 'give up reconnecting after this long (default 60)')
    .option('--verbose', 'report connection changes on stderr')
    .argument('<argv...>', 'the program and its arguments (after -- if they start with a dash)')
    .passThroughOptions()
    .action(async (argv: string[], options: RunOptions) => {
      const code = await runRemote(argv, options);
      // Let stdout/stderr drain, then end even if a stray handle would keep the loop alive.
      process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
    });
}
