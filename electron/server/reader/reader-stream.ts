// One output stream as the reader thread reads it: reads are joined into batches of up to
// MAX_OUTPUT_CHUNK_BYTES under the server's coalescing policy and posted to the main thread, and
// the stream stops while its entry is paused or the main thread has fallen too far behind. A bulk
// stream's batches are placed in its output ring (output-ring.ts) rather than fresh buffers.
import { OutputCoalescer } from '../../../shared/output-coalescing';
import type { OutputStream } from '../../../shared/protocol';
import { MAX_OUTPUT_CHUNK_BYTES, OUTPUT_COALESCING } from '../limits';
import { OutputRing, type RetiredRings } from './output-ring';
import type { ReaderMemory } from './reader-shared-memory';

/** What a StreamReader needs of the stream it reads (a node stream has both). */
export interface PausableSource {
  pause(): unknown;
  resume(): unknown;
}

/** Where a stream's batches go (the main thread, through the reader's outbox). */
export interface BatchSink {
  /** A batch in a buffer of its own: `data` alone uses its ArrayBuffer, so it can be transferred. */
  batch(stream: OutputStream, data: Buffer): void;
  /** The stream's output ring, once, before the first batch placed in it. */
  ring(stream: OutputStream, ring: SharedArrayBuffer): void;
  /** A batch placed in the ring: `length` bytes at `offset`, ending at ring position `end`. */
  ringBatch(stream: OutputStream, offset: number, length: number, end: number): void;
}

/**
 * A batch at least this full moves to the main thread with its buffer. A smaller one is copied
 * out instead, so a retained keystroke echo does not pin a buffer of MAX_OUTPUT_CHUNK_BYTES.
 */
const TRANSFER_WHOLE_BATCH_BYTES = MAX_OUTPUT_CHUNK_BYTES / 2;

/**
 * The main thread may take output later than the reader posts it. The reader stops its stream
 * while more than `readAhead` posted bytes are not yet taken, so a pause there (flow control, a
 * congested client) takes effect within a bounded overshoot. The paused flag is checked on every
 * read as well: libuv may run up to 32 reads in one callback before this thread sees the 'pause'
 * message that follows the flag.
 *
 * The ring (of `ringBytes`, 0 for none) is made once the stream posted a batch at least half full:
 * a stream that only echoes keystrokes never has one. While the ring is full, because the main
 * thread still retains or has not yet taken what lies there, batches go in fresh buffers as before.
 */
export class StreamReader {
  private source: PausableSource | null = null;
  private batch: Buffer | null = null;
  /** The batch being filled lies in the ring. */
  private batchInRing = false;
  /** A buffer of our own kept for the next batch outside the ring (small batches are copied out). */
  private spare: Buffer | null = null;
  private ring: OutputRing | null = null;
  private wantsRing = false;
  private bytes = 0;
  private timer: NodeJS.Timeout | null = null;
  /** Bytes posted, modulo 2^32 like the count of bytes taken in shared memory. */
  private posted = 0;
  private readonly coalescer = new OutputCoalescer(OUTPUT_COALESCING);

  constructor(
    readonly stream: OutputStream,
    private readonly memory: ReaderMemory,
    private readonly readAhead: number,
    private readonly sink: BatchSink,
    private readonly ringBytes: number,
    /** Rings of ended streams to reuse, and where this one goes once its stream ended. */
    private readonly retired: RetiredRings | null = null,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The stream to pause and resume; a pty's is made with a callback into this reader, so later. */
  attach(source: PausableSource): void {
    this.source = source;
  }

  onData(chunk: Buffer): void {
    const now = this.now();
    let at = 0;
    while (at < chunk.length) {
      if (this.bytes === MAX_OUTPUT_CHUNK_BYTES) this.flush();
      this.batch ??= this.startBatch();
      const copied = chunk.copy(this.batch, this.bytes, at);
      // A batch without room would spin here for good, the whole thread's output stalled.
      if (copied === 0) throw new Error(`output batch of ${this.batch.length} bytes has no room`);
      this.bytes += copied;
      at += copied;
    }
    const wait = this.coalescer.arrive(now, this.bytes);
    if (wait === 0) this.flush();
    else this.timer ??= setTimeout(this.flush, wait);
    if (this.memory.paused()) this.source?.pause();
  }

  /** Room for the next batch: in the ring when it has some, else a buffer of our own. */
  private startBatch(): Buffer {
    if (this.wantsRing && this.ring === null) {
      this.ring = new OutputRing(
        this.ringBytes,
        () => this.memory.released(this.stream),
        this.retired?.take(this.ringBytes) ?? null,
      );
      this.sink.ring(this.stream, this.ring.shared);
    }
    const room = this.ring?.reserve(MAX_OUTPUT_CHUNK_BYTES) ?? null;
    this.batchInRing = room !== null;
    if (room) return room;
    const own = this.spare ?? Buffer.allocUnsafeSlow(MAX_OUTPUT_CHUNK_BYTES);
    this.spare = null;
    return own;
  }

  /** Posts what the batch holds, if anything. */
  readonly flush = (): void => {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.bytes === 0 || !this.batch) return;
    const bytes = this.bytes;
    this.posted = (this.posted + bytes) | 0;
    this.bytes = 0;
    if (this.batchInRing) {
      const offset = this.ring!.commit(bytes);
      this.batch = null;
      this.sink.ringBatch(this.stream, offset, bytes, this.ring!.position);
    } else {
      let data: Buffer;
      if (bytes >= TRANSFER_WHOLE_BATCH_BYTES) {
        data = this.batch.subarray(0, bytes);
        if (this.ringBytes > 0) this.wantsRing = true;
      } else {
        data = Buffer.allocUnsafeSlow(bytes);
        this.batch.copy(data, 0, 0, bytes);
        this.spare = this.batch;
      }
      this.batch = null;
      this.sink.batch(this.stream, data);
    }
    if (this.aheadTooFar()) this.updateReading();
  };

  /**
   * The stream ended: what its batch still gathers is posted (the coalescing wait may not have run
   * out yet), then its ring may serve a later stream. Nothing is placed in the ring after this.
   */
  retire(): void {
    this.flush();
    if (this.ring) this.retired?.add(this.ring);
    this.ring = null;
  }

  /**
   * Pauses or resumes the stream after a change of the paused flag or of the bytes taken. A reader
   * too far ahead asks to be woken, then looks again: the main thread may have taken output in
   * between, and seen no request then, so it would never send the 'wake'.
   */
  updateReading(): void {
    if (!this.source) return;
    if (this.memory.paused()) {
      this.source.pause();
      return;
    }
    if (this.aheadTooFar()) {
      this.memory.requestWake(this.stream);
      if (this.aheadTooFar()) {
        this.source.pause();
        return;
      }
      this.memory.withdrawWakeRequest(this.stream);
    }
    this.source.resume();
  }

  private aheadTooFar(): boolean {
    return this.memory.ahead(this.stream, this.posted) > this.readAhead;
  }
}
