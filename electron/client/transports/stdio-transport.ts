// Stdio transport: spawns the server command in its own process group and speaks newline-delimited
// JSON over its stdin/stdout. Closing ends stdin (the server's cue to shut down), then kills the
// group. A server that exits is reported with its exit status and the tail of its stderr.
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { ClientError, inboundMessageTooLarge } from '../client-error';
import { MAX_INBOUND_MESSAGE_BYTES, STDERR_TAIL_BYTES, STDIO_KILL_GRACE_MS } from '../constants';
import type { TransportKind } from './environment-kind';
import type { Transport, TransportHandlers } from './transport-types';

export interface StdioTransportSpec {
  command: string[];
  cwd?: string;
  env?: Record<string, string>;
  /**
   * A line the command prints before its stdout carries the protocol: everything up to it is
   * dropped (an SSH login shell's .bashrc or MOTD may print there first).
   */
  preamble?: string;
  /** What an exit status means, when the command gives some statuses a meaning of their own. */
  exitError?: (code: number | null) => ClientError | null;
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

export async function openStdioTransport(
  spec: StdioTransportSpec,
  handlers: TransportHandlers,
  timeoutMs: number,
): Promise<Transport> {
  const [program, ...args] = spec.command;
  if (!program) throw new ClientError('invalidArgument', 'The stdio transport needs a command to run.');
  const description = `stdio: ${spec.command.join(' ')}`;
  const child = spawn(program, args, {
    cwd: spec.cwd,
    env: { ...process.env, ...spec.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });

  let stderrTail = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => {
    stderrTail = (stderrTail + d).slice(-STDERR_TAIL_BYTES);
  });
  const withStderr = (message: string): string => {
    const tail = stderrTail.trim();
    return tail ? `${message} Its stderr ended with:\n${tail}` : message;
  };

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child.pid, 'SIGKILL');
      reject(new ClientError('timeout', `Starting "${spec.command.join(' ')}" timed out.`));
    }, timeoutMs);
    child.once('spawn', () => {
      clearTimeout(timer);
      resolve();
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new ClientError('transport', `Could not start the stdio server "${program}": ${error.message}.`),
      );
    });
  });
  const pid = child.pid;

  let closedByUs = false;
  let reported = false;
  const report = (error: ClientError): void => {
    if (reported || closedByUs) return;
    reported = true;
    handlers.onClose(error);
  };

  const decoder = new StringDecoder('utf8');
  // The tail of what came before the preamble (long enough to hold a preamble split across reads).
  let beforePreamble: string | null = spec.preamble !== undefined ? '' : null;
  const afterPreamble = (text: string): string | null => {
    if (beforePreamble === null || spec.preamble === undefined) return text;
    const seen = beforePreamble + text;
    const at = seen.indexOf(`${spec.preamble}\n`);
    if (at < 0) {
      beforePreamble = seen.slice(-(spec.preamble.length + 1));
      return null;
    }
    beforePreamble = null;
    return seen.slice(at + spec.preamble.length + 1);
  };
  // Pieces of a line still waiting for its newline; joined once, so huge lines stay linear.
  let partial: string[] = [];
  // In UTF-16 units, which for JSON text (ASCII but for string contents) is about its bytes.
  let partialLength = 0;
  child.stdout.on('data', (data: Buffer) => {
    if (reported || closedByUs) return;
    const decoded = afterPreamble(decoder.write(data));
    if (decoded === null) return;
    handlers.onActivity();
    let text = decoded;
    let newline = text.indexOf('\n');
    while (newline >= 0) {
      partial.push(text.slice(0, newline));
      let line = partial.join('');
      partial = [];
      partialLength = 0;
      text = text.slice(newline + 1);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line.trim()) handlers.onMessage(line);
      if (closedByUs || reported) return;
      newline = text.indexOf('\n');
    }
    if (!text) return;
    partial.push(text);
    partialLength += text.length;
    if (partialLength > MAX_INBOUND_MESSAGE_BYTES) {
      partial = [];
      report(
        inboundMessageTooLarge(`The stdio server "${spec.command.join(' ')}"`, MAX_INBOUND_MESSAGE_BYTES),
      );
      killGroup(pid, 'SIGKILL');
    }
  });
  child.stdin.on('error', () => undefined);
  child.on('exit', (code, signal) => {
    // Whatever the dead server left in its group is orphaned; clean it up.
    killGroup(pid, 'SIGKILL');
    const status = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    // Let stdout and stderr drain so the last lines and the stderr tail are not lost.
    const finish = (): void =>
      report(
        spec.exitError?.(code) ?? new ClientError('disconnected', withStderr(`The stdio server ${status}.`)),
      );
    if (child.stdout.readableEnded) finish();
    else {
      child.stdout.once('end', finish);
      setTimeout(finish, 200).unref();
    }
  });

  return {
    description,
    hasPings: false,
    send(text) {
      if (reported || closedByUs || !child.stdin.writable) {
        throw new ClientError('disconnected', `The stdio server "${spec.command.join(' ')}" is gone.`);
      }
      child.stdin.write(`${text}\n`);
    },
    ping() {
      return false;
    },
    close() {
      if (closedByUs) return;
      closedByUs = true;
      child.stdin.end();
      if (child.exitCode !== null || child.signalCode !== null) {
        killGroup(pid, 'SIGKILL');
        return;
      }
      const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), STDIO_KILL_GRACE_MS);
      timer.unref();
      child.once('exit', () => {
        clearTimeout(timer);
        killGroup(pid, 'SIGKILL');
      });
    },
  };
}

/** A stdio command starts a new server process that has never heard of the old session. */
export const stdioTransport: TransportKind<'stdio'> = {
  opener: (spec) => ({
    prepare: () => Promise.resolve(),
    open: (handlers, timeoutMs) => openStdioTransport(spec, handlers, timeoutMs),
    dispose: () => undefined,
  }),
  whyLinkCannotResume: () =>
    'A new stdio server process cannot resume the old session, so its processes are gone.',
};
