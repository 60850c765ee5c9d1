// Where one process log keeps its output bytes: packed one after another into slabs (a few large
// buffers) instead of one buffer per chunk read. A chunk in a buffer of its own costs a few hundred
// bytes beyond its data (its ArrayBuffer, the backing store behind it, the allocator's header and
// rounding), a large share of a terminal's small reads; a slab holds many chunks in one allocation.
// Slabs are write-once: bytes once stored never move or change, so views handed out stay valid.
// A slab is freed by the GC once no retained entry (and no view in flight) refers to it, so
// eviction needs no bookkeeping here; what evicted chunks still pin is at most the oldest slab.

/** The largest slab (in the footprint bench 256 KiB came out a little lower and steadier than 64 KiB). */
export const SLAB_MAX_BYTES = 256 * 1024;
/** A log's first slab starts this small and doubles as it fills, so a log that printed little holds little. */
export const SLAB_MIN_BYTES = 2 * 1024;
/** A chunk at least this big is kept as it is, in a slab of its own: packing it would save nothing. */
export const OWN_SLAB_BYTES = 64 * 1024;

/** Where a stored chunk lives: `slab.bytes[start, start + length)`. */
export class Slab {
  constructor(
    /** Replaced by a bigger copy while the slab grows; the bytes stored stay where they were. */
    public bytes: Uint8Array,
    public used: number,
  ) {}

  view(start: number, length: number): Uint8Array {
    return this.bytes.subarray(start, start + length);
  }
}

export class OutputSlabs {
  /** The slab new chunks are packed into, or null before the first. */
  private open: Slab | null = null;

  /** Copies `data` into the open slab (or keeps a big chunk as it is); returns where it lives. */
  store(data: Uint8Array): { slab: Slab; start: number } {
    const length = data.byteLength;
    if (length >= OWN_SLAB_BYTES) return { slab: new Slab(data, length), start: 0 };
    let slab = this.open;
    if (slab === null || slab.bytes.byteLength - slab.used < length) slab = this.makeRoom(length);
    const start = slab.used;
    slab.bytes.set(data, start);
    slab.used += length;
    return { slab, start };
  }

  /** The open slab, grown (while below the largest size) or replaced, with room for `length` bytes. */
  private makeRoom(length: number): Slab {
    const open = this.open;
    if (open !== null && open.used + length <= SLAB_MAX_BYTES) {
      let capacity = Math.max(open.bytes.byteLength, SLAB_MIN_BYTES);
      while (capacity < open.used + length) capacity *= 2;
      const grown = new Uint8Array(Math.min(capacity, SLAB_MAX_BYTES));
      grown.set(open.bytes.subarray(0, open.used));
      open.bytes = grown;
      return open;
    }
    if (open !== null) this.seal(open);
    // A log that has filled a slab is busy: its next slabs start at the largest size.
    const capacity = open === null ? SLAB_MIN_BYTES : SLAB_MAX_BYTES;
    let size = capacity;
    while (size < length) size *= 2;
    this.open = new Slab(new Uint8Array(size), 0);
    return this.open;
  }

  /**
   * No more output is expected (the process ended): the open slab gives back its unused tail, and
   * output that still comes starts a small slab again.
   */
  finish(): void {
    const open = this.open;
    this.open = null;
    if (open !== null && open.used < open.bytes.byteLength) open.bytes = open.bytes.slice(0, open.used);
  }

  /** A full slab is done: its unused tail is given back when that is worth a copy. */
  private seal(slab: Slab): void {
    if (slab.bytes.byteLength - slab.used > slab.bytes.byteLength / 8) {
      slab.bytes = slab.bytes.slice(0, slab.used);
    }
  }
}
