// The framing of a byte stream (stdio, the daemon's unix socket, and so the SSH bridge, which relays
// one) once `tetherBinaryFrames` is agreed on it. Until then, and for ever with a peer that did not
// agree (codex), the stream is newline-delimited JSON. A sender switches right after the initialize
// result (the server after sending it, the client after reading it); from then on every message it
// sends is a frame:
//
//   byte 0      the kind: 0xF5 JSON text (one JSON-RPC message as UTF-8), 0xF6 a data frame (the
//               same bytes as a WebSocket data frame, data-frame.ts)
//   bytes 1..4  the body length N, unsigned 32-bit big-endian
//   N bytes     the body
//
// A reader switches at the same point of its inbound stream: the client right after the initialize
// result line, the server right after the initialize request (Tether's client sends nothing while
// its initialize is unanswered). A relay (the bridge) passes the bytes through without looking at
// them. 0xF5 and 0xF6 never occur in UTF-8, so a frame where a JSON line was due (a peer that
// frames without the agreement) is told apart and refused. Once switched, anything but a frame
// kind where a frame must begin, or a length above the reader's bound, means the stream lost its
// boundaries, and it cannot be read on.

export const STREAM_FRAME_TEXT = 0xf5;
export const STREAM_FRAME_DATA = 0xf6;
/** The kind byte and the body length. */
export const STREAM_FRAME_PREFIX_BYTES = 5;

export type StreamMessageKind = 'line' | 'text' | 'dataFrame';

export interface StreamDecoderEvents {
  /** One message: a JSON line (without its newline), or a frame's body. */
  message(kind: StreamMessageKind, bytes: Uint8Array): void;
  /** A line longer than the bound was dropped (up to its newline); the stream reads on. */
  lineTooLong(): void;
  /** The stream lost its boundaries; nothing more is delivered. */
  broken(reason: string): void;
}

const NEWLINE = 0x0a;

/** The 5 bytes that precede a frame body of `bodyBytes` bytes. */
export function streamFramePrefix(kind: number, bodyBytes: number): Uint8Array {
  const prefix = new Uint8Array(STREAM_FRAME_PREFIX_BYTES);
  prefix[0] = kind;
  new DataView(prefix.buffer).setUint32(1, bodyBytes, false);
  return prefix;
}

function isFrameKind(byte: number): boolean {
  return byte === STREAM_FRAME_TEXT || byte === STREAM_FRAME_DATA;
}

function isBlank(line: Uint8Array): boolean {
  for (const byte of line) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  return true;
}

function hex(byte: number): string {
  return `0x${byte.toString(16).padStart(2, '0')}`;
}

export interface StreamDecoderOptions {
  /**
   * The caller reuses each chunk's memory once push() returns (one read buffer for every read):
   * then nothing delivered is a view of a chunk, everything is copied out. Otherwise a message
   * that lies whole in one chunk is delivered as a view of it, without a copy.
   */
  chunksReused?: boolean;
}

/**
 * Cuts a byte stream into messages, chunk by chunk, whatever the chunks' boundaries. A frame body
 * split across chunks is gathered into one buffer allocated for it once its length is known;
 * readTarget() lends the unfilled rest of that buffer, so a reader can read the stream straight
 * into it and skip both its own buffer and the copy.
 */
export class StreamDecoder {
  private framesAllowed = false;
  /** The stream is framed from here on. */
  private framed = false;
  private dead = false;
  /** Pieces of the line being read (copies when chunks are reused). */
  private pieces: Uint8Array[] = [];
  private piecesBytes = 0;
  private discardingLine = false;
  private readonly prefix = new Uint8Array(STREAM_FRAME_PREFIX_BYTES);
  private readonly prefixView = new DataView(this.prefix.buffer);
  private prefixBytes = 0;
  /** The body length of the frame being read, once its prefix is complete. */
  private bodyBytes = -1;
  /** Where the body of the frame being read is gathered, once it did not lie whole in a chunk. */
  private body: Uint8Array | null = null;
  private bodyFilled = 0;
  private readonly chunksReused: boolean;

  constructor(
    /** Longest line or frame body accepted. */
    private readonly maxMessageBytes: number,
    private readonly events: StreamDecoderEvents,
    private readonly allocate: (bytes: number) => Uint8Array = (bytes) => new Uint8Array(bytes),
    options: StreamDecoderOptions = {},
  ) {
    this.chunksReused = options.chunksReused === true;
  }

  /**
   * `tetherBinaryFrames` was agreed: the peer's next message is a frame, and so is every one after
   * it. Called between messages (from the handler of the one that agreed).
   */
  allowFrames(): void {
    this.framesAllowed = true;
    this.framed = true;
  }

  get isBroken(): boolean {
    return this.dead;
  }

  push(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length && !this.dead) {
      if (!this.framed && this.atLineStart() && isFrameKind(chunk[at]!)) {
        if (!this.framesAllowed) {
          this.fail(`a framed message (kind ${hex(chunk[at]!)}) before tetherBinaryFrames was agreed`);
          return;
        }
        this.framed = true;
      }
      at = this.framed ? this.readFrame(chunk, at) : this.readLine(chunk, at);
    }
  }

  /**
   * The unfilled rest of the frame body being gathered, for the next read to land in (then call
   * filledTarget with what it read); null when no body is being gathered (then push the read).
   */
  readTarget(): Uint8Array | null {
    if (this.dead || this.body === null) return null;
    return this.body.subarray(this.bodyFilled);
  }

  /** `bytes` bytes were read into the start of what readTarget() returned. */
  filledTarget(bytes: number): void {
    if (this.dead || this.body === null) return;
    if (!Number.isInteger(bytes) || bytes < 0 || bytes > this.body.length - this.bodyFilled) {
      throw new RangeError(`${bytes} bytes do not fit the ${this.body.length - this.bodyFilled} lent`);
    }
    this.bodyFilled += bytes;
    if (this.bodyFilled === this.body.length) this.deliverFrame(this.body);
  }

  private atLineStart(): boolean {
    return this.piecesBytes === 0 && this.pieces.length === 0 && !this.discardingLine;
  }

  private fail(reason: string): void {
    this.dead = true;
    this.pieces = [];
    this.body = null;
    this.events.broken(reason);
  }

  /** `bytes` as memory of their own when the chunk they are in will be reused. */
  private own(bytes: Uint8Array): Uint8Array {
    if (!this.chunksReused) return bytes;
    const copy = this.allocate(bytes.length);
    copy.set(bytes);
    return copy;
  }

  private take(last: Uint8Array): Uint8Array {
    const total = this.piecesBytes + last.length;
    let whole: Uint8Array;
    if (this.pieces.length > 0) {
      whole = this.allocate(total);
      let offset = 0;
      for (const piece of this.pieces) {
        whole.set(piece, offset);
        offset += piece.length;
      }
      whole.set(last, offset);
    } else whole = this.own(last);
    this.pieces = [];
    this.piecesBytes = 0;
    return whole;
  }

  private readLine(chunk: Uint8Array, at: number): number {
    const newline = chunk.indexOf(NEWLINE, at);
    if (newline < 0) {
      if (!this.discardingLine) {
        this.pieces.push(this.own(chunk.subarray(at)));
        this.piecesBytes += chunk.length - at;
        if (this.piecesBytes > this.maxMessageBytes) {
          this.pieces = [];
          this.piecesBytes = 0;
          this.discardingLine = true;
          this.events.lineTooLong();
        }
      }
      return chunk.length;
    }
    if (this.discardingLine) {
      this.discardingLine = false;
      return newline + 1;
    }
    let line = this.take(chunk.subarray(at, newline));
    if (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, line.length - 1);
    if (!isBlank(line)) this.events.message('line', line);
    return newline + 1;
  }

  private readFrame(chunk: Uint8Array, at: number): number {
    if (this.bodyBytes < 0) {
      if (this.prefixBytes === 0 && !isFrameKind(chunk[at]!)) {
        this.fail(
          `byte ${hex(chunk[at]!)} where a frame must begin (the stream is framed after the handshake)`,
        );
        return chunk.length;
      }
      const n = Math.min(STREAM_FRAME_PREFIX_BYTES - this.prefixBytes, chunk.length - at);
      this.prefix.set(chunk.subarray(at, at + n), this.prefixBytes);
      this.prefixBytes += n;
      at += n;
      if (this.prefixBytes < STREAM_FRAME_PREFIX_BYTES) return at;
      const length = this.prefixView.getUint32(1, false);
      if (length > this.maxMessageBytes) {
        this.fail(`a frame of ${length} bytes, above the limit of ${this.maxMessageBytes}`);
        return chunk.length;
      }
      this.bodyBytes = length;
      // A body whole in this chunk is delivered from it (a view, or one copy); any other is
      // gathered into its own buffer from here on.
      if (chunk.length - at >= length) {
        const body = this.own(chunk.subarray(at, at + length));
        this.deliverFrame(body);
        return at + length;
      }
      this.body = this.allocate(length);
      this.bodyFilled = 0;
    }
    const body = this.body!;
    const n = Math.min(body.length - this.bodyFilled, chunk.length - at);
    body.set(chunk.subarray(at, at + n), this.bodyFilled);
    this.bodyFilled += n;
    if (this.bodyFilled === body.length) this.deliverFrame(body);
    return at + n;
  }

  private deliverFrame(body: Uint8Array): void {
    const kind = this.prefix[0] === STREAM_FRAME_TEXT ? 'text' : 'dataFrame';
    this.prefixBytes = 0;
    this.bodyBytes = -1;
    this.body = null;
    this.bodyFilled = 0;
    this.events.message(kind, body);
  }
}
