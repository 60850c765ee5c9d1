// A connection over a byte stream, for the listeners that carry one connection per stream (stdio,
// and each unix-socket client, which is what the SSH bridge relays): newline-delimited JSON until
// `tetherBinaryFrames` is agreed, then length-prefixed frames (shared/protocol/stream-framing.ts)
// in both directions. Messages of one event-loop turn leave together.
import type { Readable, Writable } from 'node:stream';
import type { Connection, Transport } from './connection';
import { decodeBytes } from './envelope';
import { MAX_STDIO_LINE_BYTES } from '../limits';
import { releaseMessage } from './message-pool';
import {
  STREAM_FRAME_DATA,
  STREAM_FRAME_TEXT,
  StreamDecoder,
  streamFramePrefix,
} from '../../../shared/protocol';

const NEWLINE_BUFFER = Buffer.from('\n');

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export class StreamTransport implements Transport {
  private corked = false;
  /** Outbound messages are frames (from right after the initialize result that agreed to them). */
  private framing = false;
  private readonly decoder: StreamDecoder;
  private connection: Connection | null = null;

  constructor(
    readonly parseErrorPrefix: string,
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly onTerminate: () => void,
    private readonly peerAlive: () => boolean,
    /** Whether the client behind the stream is there to read (default: peerAlive). */
    private readonly peerReading: () => boolean = peerAlive,
  ) {
    this.decoder = new StreamDecoder(
      MAX_STDIO_LINE_BYTES,
      {
        message: (kind, bytes) => {
          const connection = this.connection!;
          if (kind === 'dataFrame') connection.handleBytes(toBuffer(bytes), true);
          else connection.handleMessage(decodeBytes(toBuffer(bytes)));
        },
        lineTooLong: () =>
          this.connection!.handleMessage({
            kind: 'invalid',
            reason: `message exceeds ${MAX_STDIO_LINE_BYTES} bytes`,
          }),
        broken: (reason) => this.connection!.streamBroken(reason),
      },
      (bytes) => Buffer.allocUnsafe(bytes),
    );
  }

  /** Feeds what arrives on the input to `connection`. */
  serve(connection: Connection): void {
    this.connection = connection;
    this.input.on('data', (chunk: Buffer) => this.decoder.push(chunk));
  }

  private cork(): void {
    // Messages of one event-loop turn leave in one writev.
    if (this.corked) return;
    this.corked = true;
    this.output.cork();
    setImmediate(this.flush);
  }

  send(message: string | Buffer): void {
    this.cork();
    if (this.framing) {
      const length = typeof message === 'string' ? Buffer.byteLength(message) : message.length;
      this.output.write(streamFramePrefix(STREAM_FRAME_TEXT, length));
    }
    this.output.write(message, (error) => {
      if (!error) releaseMessage(message);
    });
    if (!this.framing) this.output.write(NEWLINE_BUFFER);
  }

  sendDataFrame(frame: Buffer): void {
    this.cork();
    this.output.write(streamFramePrefix(STREAM_FRAME_DATA, frame.length));
    this.output.write(frame, (error) => {
      if (!error) releaseMessage(frame);
    });
  }

  useFrames(): void {
    this.framing = true;
    this.decoder.allowFrames();
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
