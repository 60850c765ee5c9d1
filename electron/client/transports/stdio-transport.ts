// Stdio transport: spawns the server command in its own process group and speaks newline-delimited
// JSON over its stdin/stdout, then length-prefixed frames once binary frames are agreed
// (shared/protocol/stream-framing.ts). Closing ends stdin (the server's cue to shut down), then
// kills the group. A server that exits is reported with its exit status and the tail of its stderr.
import { spawn } from 'node:child_process';
import { ClientError, inboundMessageTooLarge } from '../client-error';
import {
  MAX_INBOUND_MESSAGE_BYTES,
  STDERR_TAIL_BYTES,
  STDIO_KILL_GRACE_MS,
  STDIO_READ_BUFFER_BYTES,
} from '../constants';
import {
  STREAM_FRAME_DATA,
  STREAM_FRAME_TEXT,
  StreamDecoder,
  streamFramePrefix,
} from '../../../shared/protocol';
import type { TransportKind } from './environment-kind';
import { openOutputChannel } from './output-channel';
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
  /** Each line the command writes on stderr, as it comes (for the link's log). */
  onStderrLine?: (line: string) => void;
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

export interface StdioTransport extends Transport {
  /** Settles once the server's process has exited (a closed transport's within the kill grace). */
  readonly exited: Promise<void>;
}

export async function openStdioTransport(
  spec: StdioTransportSpec,
  handlers: TransportHandlers,
  timeoutMs: number,
): Promise<StdioTransport> {
  const [program, ...args] = spec.command;
  if (!program) throw new ClientError('invalidArgument', 'The stdio transport needs a command to run.');
  let closedByUs = false;
  let reported = false;
  const description = `stdio: ${spec.command.join(' ')}`;
  // Reads of the server's stdout land in the frame body being gathered, or else in one read
  // buffer of ours, reused: the decoder copies out whatever it keeps (output-channel.ts).
  const readBuffer = Buffer.allocUnsafe(STDIO_READ_BUFFER_BYTES);
  let decoder: StreamDecoder | null = null;
  let onChunk: (chunk: Buffer) => void = () => undefined;
  const channel = await openOutputChannel({
    buffer: () => decoder?.readTarget() ?? readBuffer,
    read: (bytes, into) => {
      if (into === readBuffer) onChunk(readBuffer.subarray(0, bytes));
      else if (reported || closedByUs || !decoder) return;
      else {
        handlers.onActivity();
        decoder.filledTarget(bytes);
      }
    },
  });
  const child = spawn(program, args, {
    cwd: spec.cwd,
    env: { ...process.env, ...spec.env },
    stdio: ['pipe', channel?.childEnd ?? 'pipe', 'pipe'],
    detached: true,
  });
  // The child has its own copy of this end now.
  channel?.childEnd.destroy();
  const stdout = channel?.reader ?? child.stdout!;
  const stdin = child.stdin!;
  const stderr = child.stderr!;

  let stderrTail = '';
  let stderrLine = '';
  stderr.setEncoding('utf8');
  stderr.on('data', (d: string) => {
    stderrTail = (stderrTail + d).slice(-STDERR_TAIL_BYTES);
    if (!spec.onStderrLine) return;
    const lines = (stderrLine + d).split('\n');
    // A line longer than the tail is cut there: a log line, not a transcript.
    stderrLine = lines.pop()!.slice(-STDERR_TAIL_BYTES);
    for (const line of lines) if (line.trim() !== '') spec.onStderrLine(line);
  });
  const withStderr = (message: string): string => {
    const tail = stderrTail.trim();
    return tail ? `${message} Its stderr ended with:\n${tail}` : message;
  };

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child.pid, 'SIGKILL');
      channel?.reader.destroy();
      reject(new ClientError('timeout', `Starting "${spec.command.join(' ')}" timed out.`));
    }, timeoutMs);
    child.once('spawn', () => {
      clearTimeout(timer);
      resolve();
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      channel?.reader.destroy();
      reject(
        new ClientError('transport', `Could not start the stdio server "${program}": ${error.message}.`),
      );
    });
  });
  const pid = child.pid;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const report = (error: ClientError): void => {
    if (reported || closedByUs) return;
    reported = true;
    handlers.onClose(error);
  };

  // The tail of what came before the preamble (long enough to hold a preamble split across reads).
  const preambleLine = spec.preamble !== undefined ? Buffer.from(`${spec.preamble}\n`) : null;
  let beforePreamble: Buffer | null = preambleLine ? Buffer.alloc(0) : null;
  const afterPreamble = (data: Buffer): Buffer | null => {
    if (beforePreamble === null || preambleLine === null) return data;
    const seen = Buffer.concat([beforePreamble, data]);
    const at = seen.indexOf(preambleLine);
    if (at < 0) {
      beforePreamble = seen.subarray(-preambleLine.length);
      return null;
    }
    beforePreamble = null;
    return seen.subarray(at + preambleLine.length);
  };
  const streamDecoder = new StreamDecoder(
    MAX_INBOUND_MESSAGE_BYTES,
    {
      message: (kind, bytes) => {
        if (reported || closedByUs) return;
        const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        handlers.onMessage(buffer, kind === 'dataFrame');
      },
      lineTooLong: () => {
        report(
          inboundMessageTooLarge(`The stdio server "${spec.command.join(' ')}"`, MAX_INBOUND_MESSAGE_BYTES),
        );
        killGroup(pid, 'SIGKILL');
      },
      broken: (reason) => {
        if (!reported && !closedByUs) handlers.onBroken(reason);
      },
    },
    (bytes) => Buffer.allocUnsafe(bytes),
    { chunksReused: channel !== null },
  );
  decoder = streamDecoder;
  onChunk = (data: Buffer): void => {
    if (reported || closedByUs || streamDecoder.isBroken) return;
    const protocol = afterPreamble(data);
    if (protocol === null) return;
    handlers.onActivity();
    streamDecoder.push(protocol);
  };
  if (!channel) child.stdout!.on('data', onChunk);
  stdout.on('error', () => undefined);
  stdin.on('error', () => undefined);
  child.on('exit', (code, signal) => {
    // Whatever the dead server left in its group is orphaned; clean it up.
    killGroup(pid, 'SIGKILL');
    const status = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    // Let stdout and stderr drain so the last lines and the stderr tail are not lost.
    const finish = (): void => {
      report(
        spec.exitError?.(code) ?? new ClientError('disconnected', withStderr(`The stdio server ${status}.`)),
      );
      // A descendant that outlived the group's kill must not keep our end open.
      channel?.reader.destroy();
    };
    if (stdout.readableEnded) finish();
    else {
      stdout.once('end', finish);
      setTimeout(finish, 200).unref();
    }
  });

  /** Our messages are frames: the server agreed to them, and we read its initialize result. */
  let framing = false;
  return {
    description,
    hasPings: false,
    exited,
    send(text) {
      if (reported || closedByUs || !stdin.writable) {
        throw new ClientError('disconnected', `The stdio server "${spec.command.join(' ')}" is gone.`);
      }
      if (framing) {
        stdin.write(streamFramePrefix(STREAM_FRAME_TEXT, Buffer.byteLength(text)));
        stdin.write(text);
      } else stdin.write(`${text}\n`);
    },
    sendDataFrame(frame, written) {
      if (reported || closedByUs || !stdin.writable) {
        throw new ClientError('disconnected', `The stdio server "${spec.command.join(' ')}" is gone.`);
      }
      stdin.write(streamFramePrefix(STREAM_FRAME_DATA, frame.byteLength));
      stdin.write(frame, (error) => {
        if (!error) written?.();
      });
    },
    useFrames() {
      framing = true;
      streamDecoder.allowFrames();
    },
    ping() {
      return false;
    },
    close() {
      if (closedByUs) return;
      closedByUs = true;
      stdin.end();
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
  opener: (spec) => {
    // Servers started and not known to have exited: disposing waits for them, so a client closed
    // at quit (the Local server) has ended, and written its last files, when its app exits.
    const running = new Set<Promise<void>>();
    return {
      prepare: () => Promise.resolve(),
      open: async (handlers, timeoutMs) => {
        const transport = await openStdioTransport(spec, handlers, timeoutMs);
        running.add(transport.exited);
        void transport.exited.then(() => running.delete(transport.exited));
        return transport;
      },
      dispose: async () => {
        await Promise.all(running);
      },
    };
  },
  whyLinkCannotResume: () =>
    'A new stdio server process cannot resume the old session, so its processes are gone.',
};
