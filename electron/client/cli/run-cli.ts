// `tether run` and `tether ssh`: run one process (for `ssh`, the host's login shell under a pty) in
// an environment through the reconnecting client, wiring it to our terminal: output to
// stdout/stderr, stdin forwarded (raw, with window size, under a tty) and its end passed on, and
// our exit code is the process's. Disconnects are ridden through silently unless --verbose.
import type { Command } from 'commander';
import type { ConnectionState, ProcessEvent, TransportSpec } from '../api';
import { MAX_OUTPUT_WINDOW_BYTES, SpawnFailureKind, type EnvironmentInfo } from '../../../shared/protocol';
import { ClientError, isClientError } from '../client-error';
import { fromPathUri } from '../files/path-uri';
import { RemoteExecServerClient } from '../link/remote-client';
import { terminalSshHooks } from '../ssh/terminal-hooks';
import { errorMessage } from '../../../shared/error-message';

/** Exit status when Tether itself fails (no connection, lost session), as ssh uses 255. */
export const RUN_FAILURE_EXIT_CODE = 255;
const SIGPIPE = 13;
/**
 * Output window requested from servers that support flow control (`--output-window`). Acks go every
 * quarter window, so three quarters stay in flight while one travels: enough for about 75 MB/s
 * at 40 ms round trip; a longer, faster link wants a larger window.
 */
export const RUN_OUTPUT_WINDOW_BYTES = 4 * 1_048_576;

interface RunOptions {
  server?: string;
  stdio?: string;
  ssh?: string;
  sshOption: string[];
  sshConfig?: string;
  port?: string;
  remoteNode?: string;
  sessionTtl?: string;
  tokenFile?: string;
  tlsFingerprint?: string;
  tty?: boolean;
  cwd?: string;
  env: string[];
  verbose?: boolean;
  recoveryDeadline?: string;
  outputWindow?: string;
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

/**
 * `--output-window` as bytes: null turns flow control off, absent means the default. The server
 * grants at most MAX_OUTPUT_WINDOW_BYTES, so a larger value is refused here rather than cut there.
 */
function outputWindow(value: string | undefined): number | null {
  if (value === undefined) return RUN_OUTPUT_WINDOW_BYTES;
  const bytes = Number(value);
  if (bytes === 0) return null;
  if (!Number.isInteger(bytes) || bytes < 0 || bytes > MAX_OUTPUT_WINDOW_BYTES) {
    throw new ClientError(
      'invalidArgument',
      `--output-window expects a number of bytes from 0 (no flow control) to ${MAX_OUTPUT_WINDOW_BYTES}, got "${value}".`,
    );
  }
  return bytes;
}

/** Seconds from the command line, as milliseconds; `flag` names it in the error. */
function seconds(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value) * 1000;
  if (!(ms > 0)) throw new ClientError('invalidArgument', `${flag} expects a positive number of seconds.`);
  return ms;
}

/** The options that say where to connect, shared by `tether run`, `tether ssh` and `tether cp`. */
export type WhereOptions = Pick<
  RunOptions,
  | 'server'
  | 'stdio'
  | 'ssh'
  | 'sshOption'
  | 'sshConfig'
  | 'port'
  | 'remoteNode'
  | 'sessionTtl'
  | 'tokenFile'
  | 'tlsFingerprint'
>;

function sshTransportFrom(destination: string, options: WhereOptions): TransportSpec {
  const port = options.port === undefined ? undefined : Number(options.port);
  if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65_536)) {
    throw new ClientError('invalidArgument', `--port expects a TCP port, got "${options.port}".`);
  }
  const sessionTtlMs = seconds(options.sessionTtl, '--session-ttl');
  return {
    kind: 'ssh',
    destination,
    ...(port !== undefined ? { port } : {}),
    sshOptions: [
      ...(options.sshConfig !== undefined ? ['-F', options.sshConfig] : []),
      ...options.sshOption.flatMap((option) => ['-o', option]),
    ],
    ...(options.remoteNode !== undefined ? { remoteNodePath: options.remoteNode } : {}),
    ...(sessionTtlMs !== undefined ? { sessionTtlMs } : {}),
  };
}

/** Where to connect, from the options `tether run` and `tether cp` share. */
export function transportFrom(options: WhereOptions): TransportSpec {
  if ([options.server, options.stdio, options.ssh].filter(Boolean).length > 1) {
    throw new ClientError('invalidArgument', 'Give one of --server, --stdio or --ssh.');
  }
  if (options.ssh) return sshTransportFrom(options.ssh, options);
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
  throw new ClientError(
    'invalidArgument',
    'Say where to run: --server ws://HOST:PORT, --ssh HOST or --stdio "COMMAND".',
  );
}

function describeState(state: ConnectionState): string | null {
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

/** What to run: fixed, or chosen from the environment once connected (the host's login shell). */
type Program = string[] | ((info: EnvironmentInfo | null) => string[]);

/** Runs `program` and resolves with the exit status `tether run` should end with. */
async function runRemote(program: Program, options: RunOptions): Promise<number> {
  const say = (message: string): void => {
    process.stderr.write(`tether: ${message}\n`);
  };
  let transport: TransportSpec;
  let env: Record<string, string>;
  let deadline: number | undefined;
  let windowBytes: number | null;
  try {
    transport = transportFrom(options);
    env = parseEnv(options.env);
    deadline = seconds(options.recoveryDeadline, '--recovery-deadline');
    windowBytes = outputWindow(options.outputWindow);
  } catch (error) {
    say(errorMessage(error));
    return RUN_FAILURE_EXIT_CODE;
  }
  const client = new RemoteExecServerClient({
    transport,
    recoveryDeadlineMs: deadline,
    log: options.verbose ? say : undefined,
    ssh: terminalSshHooks(Boolean(options.verbose)),
  });
  let argv = typeof program === 'function' ? [] : program;
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
    if (typeof program === 'function') argv = program(client.environmentInfo);
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
      ...(windowBytes === null ? {} : { outputWindowBytes: windowBytes }),
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
          if (options.verbose) say(`input was not delivered: ${errorMessage(error)}`);
        },
      );
    };
    if (interactive) {
      stdin.setRawMode(true);
      cleanups.push(() => stdin.setRawMode(false));
    }
    // The end of our input is the end of the process's (`tether run -- sort < file`); in raw
    // mode a terminal never ends, ^D is just a byte the remote terminal interprets.
    const onEnd = (): void => {
      if (!forwarding) return;
      forwarding = false;
      handle.closeStdin().catch((error: unknown) => {
        if (isClientError(error, 'unsupported')) say(`${errorMessage(error)} Stop it with Ctrl-C.`);
        else if (options.verbose) say(`the end of input was not delivered: ${errorMessage(error)}`);
      });
    };
    stdin.on('data', onData);
    if (!interactive) stdin.on('end', onEnd);
    stdin.resume();
    cleanups.push(() => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
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

/** `tether run`, `tether ssh` and `tether cp` share the SSH options. */
export function withSshOptions(command: Command): Command {
  return command
    .option('-o, --ssh-option <option>', 'an ssh -o option, e.g. ProxyJump=bastion (repeatable)', collect, [])
    .option('-F, --ssh-config <file>', 'an ssh config file instead of ~/.ssh/config')
    .option('-p, --port <port>', 'ssh port (default: from your ssh config, else 22)')
    .option('--remote-node <path>', 'a Node ≥ 20 on the host to run the server with')
    .option('--session-ttl <seconds>', 'how long the host keeps the session after a drop (default 3 h)');
}

/** The host's login shell, from the server's environment (sh if it names none). */
function loginShell(info: EnvironmentInfo | null): string[] {
  return [info?.shell?.path ?? '/bin/sh', '-l'];
}

/** Ends `tether` with `code` once stdout/stderr drained, even if a stray handle would keep it alive. */
function exitWith(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

export function registerSshCommand(program: Command): void {
  withSshOptions(
    program
      .command('ssh')
      .description('Open a shell on an SSH host that rides through network drops (with scrollback).')
      .argument('<destination>', 'a Host of your ssh config, or [user@]host'),
  )
    .option('--verbose', 'report connect stages and connection changes on stderr')
    .action(async (destination: string, options: RunOptions) => {
      const code = await runRemote(loginShell, { ...options, ssh: destination, tty: true, env: [] });
      exitWith(code);
    });
}

export function registerRunCommand(program: Command): void {
  withSshOptions(
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
      .option(
        '--ssh <destination>',
        'an SSH host (config alias or [user@]host): Tether installs its server there',
      )
      .option('--tty', 'run under a pseudo-terminal (raw input and window size when on a terminal)')
      .option('--cwd <path>', "working directory on the server (default: the server's)")
      .option(
        '--env <NAME=VALUE>',
        'set a variable on top of the server environment (repeatable)',
        collect,
        [],
      )
      .option(
        '--recovery-deadline <seconds>',
        'give up reconnecting after this long (default: keep trying while the server may hold the session)',
      )
      .option(
        '--output-window <bytes>',
        `output the server may send before this side has written it out (default ${RUN_OUTPUT_WINDOW_BYTES}; 0: no flow control)`,
      )
      .option('--verbose', 'report connection changes on stderr')
      .argument('<argv...>', 'the program and its arguments (after -- if they start with a dash)'),
  )
    .passThroughOptions()
    .action(async (argv: string[], options: RunOptions) => {
      exitWith(await runRemote(argv, options));
    });
}
