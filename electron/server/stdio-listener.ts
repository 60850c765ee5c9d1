// The stdio transport: newline-delimited JSON on stdin/stdout carrying exactly one connection.
// Outbound messages of one event-loop turn are written together; EOF on stdin ends the server.
import { Connection, type ConnectionDeps, type Transport } from './connection';
import { decodeBytes } from './envelope';
import { MAX_STDIO_LINE_BYTES } from './limits';
import { releaseMessage } from './message-pool';

const NEWLINE = 0x0a;
const NEWLINE_BUFFER = Buffer.from('\n');

class StdioTransport implements Transport {
  readonly parseErrorPrefix = 'failed to parse JSON-RPC message from exec-server stdio';
  private corked = false;

  constructor(
    private readonly output: NodeJS.WriteStream,
    private readonly onTerminate: () => void,
  ) {}

  send(message: string | Buffer): void {
    // Messages of one event-loop turn leave in one writev.
    if (!this.corked) {
      this.corked = true;
      this.output.cork();
      setImmediate(this.flush);
    }
    this.output.write(message, (error) => {
      if (!error) releaseMessage(message);
    });
    this.output.write(NEWLINE_BUFFER);
  }

  readonly flush = (): void => {
    if (!this.corked) return;
    this.corked = false;
    this.output.uncork();
  };

  bufferedBytes(): number {
    return this.output.writableLength;
  }

  onceDrain(callback: () => void): void {
    this.output.once('drain', callback);
  }

  pauseInbound(paused: boolean): void {
    if (paused) process.stdin.pause();
    else process.stdin.resume();
  }

  terminate(): void {
    this.onTerminate();
  }

  /** A stdio server carries exactly one connection; while its stdin is open, it is the live one. */
  probeAlive(): Promise<boolean> {
    return Promise.resolve(true);
  }
}

export interface StdioListener {
  /** Writes out what is queued; call before exiting. */
  flush(): Promise<void>;
}

/** Serves one connection on stdin/stdout; `onEnd(exitCode)` runs on EOF (0) or a protocol violation (1). */
export function startStdioListener(deps: ConnectionDeps, onEnd: (exitCode: number) => void): StdioListener {
  const transport = new StdioTransport(process.stdout, () => onEnd(1));
  const connection = new Connection(transport, deps);
  let buffered: Buffer[] = [];
  let bufferedLength = 0;
  let discarding = false;

  const handleLine = (line: Buffer): void => {
    let end = line.length;
    if (end > 0 && line[end - 1] === 0x0d) end--;
    const body = line.subarray(0, end);
    if (body.toString('latin1').trim() === '') return;
    connection.handleMessage(decodeBytes(body));
  };

  process.stdin.on('data', (chunk: Buffer) => {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline < 0) break;
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (discarding) {
        discarding = false;
        continue;
      }
      if (bufferedLength === 0) handleLine(piece);
      else {
        buffered.push(piece);
        const line = Buffer.concat(buffered);
        buffered = [];
        bufferedLength = 0;
        handleLine(line);
      }
    }
    if (start < chunk.length && !discarding) {
      buffered.push(chunk.subarray(start));
      bufferedLength += chunk.length - start;
      if (bufferedLength > MAX_STDIO_LINE_BYTES) {
        buffered = [];
        bufferedLength = 0;
        discarding = true;
        connection.handleMessage({
          kind: 'invalid',
          reason: `message exceeds ${MAX_STDIO_LINE_BYTES} bytes`,
        });
      }
    }
  });
  process.stdin.on('end', () => {
    connection.handleClose();
    onEnd(0);
  });
  process.stdin.on('error', () => {
    connection.handleClose();
    onEnd(0);
  });

  return {
    flush: () =>
      new Promise((resolve) => {
        transport.flush();
        if (process.stdout.writableLength === 0) resolve();
        else process.stdout.write('', () => resolve());
      }),
  };
}
