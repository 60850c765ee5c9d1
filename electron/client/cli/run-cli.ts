// `tether run` and `tether ssh`: run one process (for `ssh`, the host's login shell under a pty) in
// an environment through the reconnecting client (remote-run.ts wires it to our terminal), our exit
// code the process's. Where to connect comes from the environment kinds' flags (where-options.ts).
import type { Command } from 'commander';
import { MAX_OUTPUT_WINDOW_BYTES, type EnvironmentInfo } from '../../../shared/protocol';
import { errorMessage } from '../../../shared/error-message';
import { escapeForTerminal } from '../../../shared/terminal-text';
import { ClientError } from '../client-error';
import { RUN_FAILURE_EXIT_CODE, runRemote, type Program, type RemoteRunOptions } from './remote-run';
import {
  transportFrom,
  transportOfKind,
  withKindOptions,
  withWhereOptions,
  type WhereOptions,
} from './where-options';
import type { TransportSpec } from '../api';

export { RUN_FAILURE_EXIT_CODE } from './remote-run';

/**
 * Output window requested from servers that support flow control (`--output-window`). Acks go every
 * quarter window, so three quarters stay in flight while one travels: enough for about 75 MB/s
 * at 40 ms round trip; a longer, faster link wants a larger window.
 */
export const RUN_OUTPUT_WINDOW_BYTES = 4 * 1_048_576;

interface RunOptions extends WhereOptions {
  tty?: boolean;
  cwd?: string;
  env?: string[];
  verbose?: boolean;
  recoveryDeadline?: string;
  outputWindow?: string;
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

/** Every message may carry the server's or the host's words (errors, stderr), so it is escaped. */
function say(message: string): void {
  process.stderr.write(`tether: ${escapeForTerminal(message, { lineBreaks: true })}\n`);
}

/** Parses the options (a bad one ends the run with a message), then runs `program`. */
async function run(program: Program, options: RunOptions, where: () => TransportSpec): Promise<number> {
  let parsed: RemoteRunOptions;
  try {
    parsed = {
      transport: where(),
      env: parseEnv(options.env ?? []),
      recoveryDeadlineMs: seconds(options.recoveryDeadline, '--recovery-deadline'),
      outputWindowBytes: outputWindow(options.outputWindow),
      tty: Boolean(options.tty),
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      verbose: Boolean(options.verbose),
    };
  } catch (error) {
    say(errorMessage(error));
    return RUN_FAILURE_EXIT_CODE;
  }
  return runRemote(program, parsed, say);
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
  withKindOptions(
    withKindOptions(
      program
        .command('ssh')
        .description(
          'Open a shell that rides through network drops (with scrollback): on an SSH host, in a container (--container) or through an exec prefix (--exec).',
        )
        .argument(
          '[destination]',
          'a Host of your ssh config, or [user@]host (with --container: the host it runs on)',
        )
        .option(
          '--container <[engine:]name>',
          'a shell in this running container (on the SSH host if one is named)',
        )
        .option(
          '--exec <prefix>',
          'a shell on the target this command prefix reaches (e.g. "kubectl exec -i POD --")',
        ),
      'ssh',
    ),
    'container',
  )
    .option('--verbose', 'report connect stages and connection changes on stderr')
    .action(async (destination: string | undefined, options: RunOptions) => {
      const code = await run(loginShell, { ...options, tty: true, env: [] }, () =>
        shellTarget(destination, options),
      );
      exitWith(code);
    });
}

/** Where `tether ssh` opens its shell: the SSH host, a container (there or here), or an exec prefix. */
function shellTarget(destination: string | undefined, options: RunOptions): TransportSpec {
  const container = options.container as string | undefined;
  const prefix = options.exec as string | undefined;
  if (container !== undefined && prefix !== undefined) {
    throw new ClientError('invalidArgument', 'Give --container or --exec, not both.');
  }
  if (container !== undefined) {
    return transportOfKind('container', container, {
      ...options,
      ...(destination ? { ssh: destination } : {}),
    });
  }
  if (destination !== undefined && prefix !== undefined) {
    throw new ClientError('invalidArgument', '--exec names its own target: give no SSH host with it.');
  }
  if (prefix !== undefined) return transportOfKind('exec', prefix, options);
  if (destination === undefined) {
    throw new ClientError('invalidArgument', 'Say where: an SSH host, --container NAME or --exec "PREFIX".');
  }
  return transportOfKind('ssh', destination, options);
}

export function registerRunCommand(program: Command): void {
  withWhereOptions(
    program.command('run').description('Run a command in an environment, riding through network drops.'),
  )
    .option('--tty', 'run under a pseudo-terminal (raw input and window size when on a terminal)')
    .option('--cwd <path>', "working directory on the server (default: the server's)")
    .option('--env <NAME=VALUE>', 'set a variable on top of the server environment (repeatable)', collect, [])
    .option(
      '--recovery-deadline <seconds>',
      'give up reconnecting after this long (default: keep trying while the server may hold the session)',
    )
    .option(
      '--output-window <bytes>',
      `output the server may send before this side has written it out (default ${RUN_OUTPUT_WINDOW_BYTES}; 0: no flow control)`,
    )
    .option('--verbose', 'report connection changes on stderr')
    .argument('<argv...>', 'the program and its arguments (after -- if they start with a dash)')
    .passThroughOptions()
    .action(async (argv: string[], options: RunOptions) => {
      exitWith(await run(argv, options, () => transportFrom(options)));
    });
}
