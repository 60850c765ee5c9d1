// A stream's output ring: memory shared by the reader thread and the main thread in which the
// reader places its batches, so a busy stream's output reuses warm pages instead of landing in a
// fresh buffer per batch (one minor page fault per 4 KiB, then work for the garbage collector:
// docs/exec-server.md, performance). The main thread keeps a batch where it lies (its retained log
// holds a view of the ring) and hands the space back once the log evicted it.
//
// Positions count bytes placed in the ring, modulo 2^32 like the other counters of the entry's
// shared memory (reader-shared-memory.ts); a batch never wraps around the end of the ring, so a
// tail too short for one is skipped and counts as placed. The main thread releases in order: a
// released position frees everything placed before it.
import type { OutputStream } from '../../../shared/protocol';
import type { TakerMemory } from './reader-shared-memory';

/** The reader thread's side: where the next batch goes, and whether the ring has room for it. */
export class OutputRing {
  readonly shared: SharedArrayBuffer;
  private readonly bytes: Buffer;
  /** Offset in the ring of the batch being filled (or of the next one). */
  private writeAt = 0;
  /** Ring position of writeAt: bytes placed so far, skipped tails included, modulo 2^32. */
  private placed = 0;

  /**
   * `size` should be a multiple of the largest batch, so a skipped tail stays short. `released`
   * reads the position the main thread has handed back.
   */
  constructor(
    readonly size: number,
    private readonly released: () => number,
    /** Memory of an ended stream's ring to write over (RetiredRings.take), of `size` bytes. */
    reused: SharedArrayBuffer | null = null,
  ) {
    this.shared = reused?.byteLength === size ? reused : new SharedArrayBuffer(size);
    this.bytes = Buffer.from(this.shared);
  }

  /** Ring position after the last committed batch. */
  get position(): number {
    return this.placed;
  }

  /** The main thread has handed back everything placed in the ring. */
  get returned(): boolean {
    return ((this.placed - this.released()) | 0) === 0;
  }

  /**
   * Room for a batch of up to `bytes` at the write position (after skipping a tail too short for
   * it), or null when the main thread still holds too much of the ring.
   */
  reserve(bytes: number): Buffer | null {
    // The tail left may be empty: a ring filled exactly to its end starts over at 0 too.
    const wraps = this.size - this.writeAt < bytes;
    const skip = wraps ? this.size - this.writeAt : 0;
    const inUse = (this.placed + skip + bytes - this.released()) | 0;
    if (inUse > this.size) return null;
    if (wraps) {
      this.placed = (this.placed + skip) | 0;
      this.writeAt = 0;
    }
    return this.bytes.subarray(this.writeAt, this.writeAt + bytes);
  }

  /** The batch last reserved holds `bytes`: returns its offset; `position` is then its end. */
  commit(bytes: number): number {
    const offset = this.writeAt;
    this.writeAt += bytes;
    this.placed = (this.placed + bytes) | 0;
    return offset;
  }
}

/**
 * The rings of ended streams, kept for later streams of the same ring size. Memory shared between
 * threads is freed only once both have collected it, and this thread allocates so little that it
 * rarely runs a full collection: every bulk stream used to leave its ring behind for a long while
 * (about 7 MB for each `tether run` of a 4 MiB window). A ring is handed out again only once the
 * main thread gave all of it back, which it does when the process closes (OutputLog).
 */
export class RetiredRings {
  private readonly rings: OutputRing[] = [];

  constructor(private readonly maxRings: number) {}

  /** Keeps an ended stream's ring; beyond maxRings the oldest is left to the garbage collector. */
  add(ring: OutputRing): void {
    this.rings.push(ring);
    if (this.rings.length > this.maxRings) this.rings.shift();
  }

  /** Memory of `size` bytes that nothing refers to any more, or null. */
  take(size: number): SharedArrayBuffer | null {
    const at = this.rings.findIndex((ring) => ring.size === size && ring.returned);
    return at < 0 ? null : this.rings.splice(at, 1)[0]!.shared;
  }
}

/**
 * What the main thread holds for one batch that lies in a ring: releasing it hands back the ring up
 * to the batch's end, so every earlier batch of the stream with it. Release in order, and only
 * once nothing refers to the batch's bytes any more.
 */
export class RingLease {
  constructor(
    private readonly memory: TakerMemory,
    private readonly stream: OutputStream,
    private readonly end: number,
  ) {}

  release(): void {
    this.memory.release(this.stream, this.end);
  }
}
