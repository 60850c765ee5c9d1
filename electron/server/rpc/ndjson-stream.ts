// Newline-delimited JSON over a byte stream, for the listeners that carry one connection per
// stream (stdio, and each unix-socket client): the transport that writes messages out, and the
// reader that cuts input into lines for the connection. Messages of one event-loop turn leave together.
import type { Readable, Writable } from 'node:stream';
import type { Connection, Transport } from './connection';
import { decodeBytes } from './envelope';
import { MAX_STDIO_LINE_BYTES } from '../limits';
import { releaseMessage } from './message-pool';

const NEWLINE = 0x0a;
const NEWLINE_BUFFER = Buffer.from('\n');

export class NdjsonTransport implements Transport {
  private corked = false;

  constructor(
    readonly parseErrorPrefix: string,
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly onTerminate: () => void,
    private readonly peerAlive: () => boolean,
    /** Whether the client behind the stream is there to read (default: peerAlive). */
    private readonly peerReading: () => boolean = peerAlive,
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
    if (paused) this.input.pause();
    else this.input.resume();
  }

  terminate(): void {
    this.onTerminate();
  }

  /** A byte stream has no ping of its own: the listener says whether its peer can still be alive. */
  probeAlive(): Promise<boolean> {
    return Promise.resolve(this.peerAlive());
  }

  probeReading(): Promise<boolean> {
    return Promise.resolve(this.peerReading());
  }
}

/**
 * Feeds `input`'s lines to `connection` (CRLF and blank lines tolerated). A line longer than
 * MAX_STDIO_LINE_BYTES is reported as invalid and skipped up to its newline.
 */
export function readNdjson(input: Readable, connection: Connection): void {
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

  input.on('data', (chunk: Buffer) => {
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
}
