// One end of a `tetherStreams` stream: a local socket on one side, the wire on the other, and the
// per-stream credit window between them. The server runs one per stream beside the socket it
// dialled on the host, the client one per forwarded socket; both ends run this same logic.
//
// Credit: a sender may have at most `window` bytes that its receiver has not yet credited back,
// and the receiver returns credit only once it has written those bytes out (the socket's write
// callback). A slow reader therefore stops its own stream only; the link is never filled with it.

/** The socket side of a channel (a net.Socket behind an adapter). */
export interface ChannelSocket {
  /** Writes bytes; `written` once they were handed to the OS. */
  write(bytes: Uint8Array, written: () => void): void;
  /** No more bytes will be written (half-close). */
  end(): void;
  pause(): void;
  resume(): void;
  /** Aborts the socket at once (a TCP reset). */
  reset(): void;
}

/** The wire side of a channel: the `stream/*` notifications for this stream. */
export interface ChannelWire {
  data(bytes: Uint8Array): void;
  credit(bytes: number): void;
  end(): void;
  reset(message: string): void;
}

/** Credit is returned in steps of a quarter window, so a full window keeps moving (as tetherFlowControl). */
const CREDIT_STEPS_PER_WINDOW = 4;

/** The window each receiver grants (as an SSH channel's), and the largest a server grants. */
export const STREAM_WINDOW_BYTES = 2 * 1024 * 1024;
export const MAX_STREAM_WINDOW_BYTES = 16 * 1024 * 1024;

/** The window a server grants when a client asks for `requested` (its own receive window). */
export function grantedStreamWindow(requested: number): number {
  return Math.min(requested, MAX_STREAM_WINDOW_BYTES);
}

export class StreamChannel {
  /** Bytes we may still send before the peer credits more. */
  private sendCredit = 0;
  /** Socket bytes read but not yet sent for want of credit. */
  private readonly held: Uint8Array[] = [];
  private endAfterHeld = false;
  private sentEnd = false;
  private receivedEnd = false;
  /** Peer bytes received and not credited back yet: never more than the receive window. */
  private uncredited = 0;
  private writtenSinceCredit = 0;
  private readonly creditStep: number;
  /** The whole link is congested: stop reading every socket (set by the owner). */
  private blocked = false;
  private paused = false;
  private finishedFlag = false;

  constructor(
    private readonly socket: ChannelSocket,
    private readonly wire: ChannelWire,
    private readonly receiveWindow: number,
    /** Called once when the stream is over, cleanly or not. */
    private readonly onFinished: () => void,
  ) {
    this.creditStep = Math.max(1, Math.floor(receiveWindow / CREDIT_STEPS_PER_WINDOW));
    this.updatePause();
  }

  get finished(): boolean {
    return this.finishedFlag;
  }

  /** Bytes read from the socket that wait for credit (for tests and memory accounting). */
  get heldBytes(): number {
    return this.held.reduce((sum, chunk) => sum + chunk.length, 0);
  }

  // ── From the socket ───────────────────────────────────────────────────────────────────────

  /**
   * Bytes read from the socket. `transient`: the caller reuses `chunk` once this returns (a shared
   * read buffer), so what has to wait for credit is copied first.
   */
  fromSocket(chunk: Uint8Array, transient = false): void {
    if (this.finishedFlag || chunk.length === 0) return;
    this.held.push(chunk);
    this.flushHeld();
    const last = this.held.length - 1;
    if (transient && last >= 0 && this.held[last]!.buffer === chunk.buffer) {
      this.held[last] = this.held[last]!.slice();
    }
  }

  /** The socket's reader reached its end: the peer gets `stream/end` after what is held. */
  socketEnded(): void {
    if (this.finishedFlag || this.sentEnd) return;
    this.endAfterHeld = true;
    this.flushHeld();
  }

  socketFailed(message: string): void {
    if (this.finish()) this.wire.reset(message);
  }

  /** The socket closed: clean once both directions ended, else the peer learns it was cut. */
  socketClosed(): void {
    if (this.finishedFlag) return;
    const clean = this.sentEnd && this.receivedEnd;
    this.finish();
    if (!clean) this.wire.reset('the connection closed before both sides ended');
  }

  // ── From the peer ─────────────────────────────────────────────────────────────────────────

  /** The peer granted its window (the answer to `stream/open`) or returned credit. */
  credit(bytes: number): void {
    if (this.finishedFlag) return;
    this.sendCredit += bytes;
    this.flushHeld();
  }

  peerData(bytes: Uint8Array): void {
    if (this.finishedFlag || bytes.length === 0) return;
    if (this.receivedEnd) {
      this.fail('data arrived after the stream ended');
      return;
    }
    this.uncredited += bytes.length;
    if (this.uncredited > this.receiveWindow) {
      this.fail(`the peer sent ${this.uncredited} bytes on a ${this.receiveWindow}-byte window`);
      return;
    }
    const length = bytes.length;
    this.socket.write(bytes, () => this.written(length));
  }

  peerEnd(): void {
    if (this.finishedFlag || this.receivedEnd) return;
    this.receivedEnd = true;
    this.socket.end();
  }

  peerReset(): void {
    if (this.finish()) this.socket.reset();
  }

  // ── From the owner ────────────────────────────────────────────────────────────────────────

  setBlocked(blocked: boolean): void {
    this.blocked = blocked;
    this.updatePause();
  }

  /** Ends the stream without telling the peer (the link is gone): the socket is reset at once. */
  abort(): void {
    if (this.finish()) this.socket.reset();
  }

  /** A protocol fault on this stream: it is reset both ways; the link carries on. */
  fail(message: string): void {
    if (!this.finish()) return;
    this.wire.reset(message);
    this.socket.reset();
  }

  private written(length: number): void {
    if (this.finishedFlag) return;
    this.writtenSinceCredit += length;
    if (this.writtenSinceCredit < this.creditStep) return;
    const bytes = this.writtenSinceCredit;
    this.writtenSinceCredit = 0;
    this.uncredited -= bytes;
    this.wire.credit(bytes);
  }

  private flushHeld(): void {
    while (this.held.length > 0 && this.sendCredit > 0 && !this.finishedFlag) {
      const chunk = this.held[0]!;
      if (chunk.length <= this.sendCredit) {
        this.held.shift();
        this.sendCredit -= chunk.length;
        this.wire.data(chunk);
      } else {
        this.held[0] = chunk.subarray(this.sendCredit);
        const part = chunk.subarray(0, this.sendCredit);
        this.sendCredit = 0;
        this.wire.data(part);
      }
    }
    if (this.endAfterHeld && this.held.length === 0 && !this.sentEnd && !this.finishedFlag) {
      this.sentEnd = true;
      this.wire.end();
    }
    this.updatePause();
  }

  private updatePause(): void {
    if (this.finishedFlag) return;
    const pause = this.blocked || this.held.length > 0 || this.sendCredit <= 0;
    if (pause === this.paused) return;
    this.paused = pause;
    if (pause) this.socket.pause();
    else this.socket.resume();
  }

  /** Marks the stream over; false when it already was. */
  private finish(): boolean {
    if (this.finishedFlag) return false;
    this.finishedFlag = true;
    this.held.length = 0;
    this.onFinished();
    return true;
  }
}

/**
 * The addresses to dial for a stream target, in order, or null when it is not a loopback target:
 * `localhost` is tried as 127.0.0.1 and then ::1 (so a dev server bound to ::1 only is reached),
 * an IPv4 literal must be in 127.0.0.0/8, an IPv6 one must be ::1. Names are never resolved, so no
 * DNS answer can point a stream into the host's network.
 */
export function loopbackAddresses(host: string): string[] | null {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost') return ['127.0.0.1', '::1'];
  const v4 = /^127\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})$/.exec(name);
  if (v4 && v4.slice(1).every((octet) => Number(octet) <= 255)) return [name];
  if (name === '::1' || name === '0:0:0:0:0:0:0:1') return ['::1'];
  return null;
}
