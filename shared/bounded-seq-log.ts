// A bounded, ordered log of items stamped with seqs: appended newest last, evicted oldest first
// once a byte or count bound is broken, searched by seq. Every retained log of process events (the
// server's OutputLog, the client's EventLog, the app's ProcessLog) is this one class, so the index
// arithmetic that "never a silent hole" rests on exists once. It remembers the highest seq it
// evicted, so a reader behind it can be told of the gap.

export interface BoundedSeqLogOptions<T> {
  /**
   * The last seq an item covers (a gap covers a range); non-decreasing in append order. null for an
   * item without a seq of its own (a terminal event): it may only come last and sorts after every seq.
   */
  seqOf: (item: T) => number | null;
  /** What an item counts against maxBytes (its output bytes; 0 for markers). */
  sizeOf: (item: T) => number;
  maxBytes: number;
  maxItems: number;
  /** Never evict the newest item, even when it alone breaks a bound: a reader always finds it. */
  keepNewest: boolean;
  /** Called for each evicted item, oldest first (not for clear()). */
  onEvict?: (item: T) => void;
}

/** Evicted slots are compacted away only once this many pile up (and are over half the array). */
const COMPACT_AFTER = 1024;

export class BoundedSeqLog<T> {
  /**
   * Retained items from `head` on. The slots before it are emptied as their items are evicted: an
   * evicted item must not stay reachable until the next compaction (up to COMPACT_AFTER of them),
   * since it may hold output bytes, or a view that pins a whole output ring.
   */
  private items: (T | undefined)[] = [];
  /** Index of the oldest retained item: evicting is a step, not a shift. */
  private head = 0;
  private bytes = 0;
  private evictedThrough = 0;
  private maxBytes: number;

  constructor(private readonly options: BoundedSeqLogOptions<T>) {
    this.maxBytes = options.maxBytes;
  }

  /** Items retained. */
  get length(): number {
    return this.items.length - this.head;
  }

  get retainedBytes(): number {
    return this.bytes;
  }

  /** Highest seq evicted so far (0 if nothing was): seqs at or below it are gone. */
  get evictedThroughSeq(): number {
    return this.evictedThrough;
  }

  /** Raises the byte bound (never lowers it), e.g. to cover a flow-control window. */
  raiseMaxBytes(bytes: number): void {
    this.maxBytes = Math.max(this.maxBytes, bytes);
  }

  /** Lowers the byte bound (never raises it), evicting the oldest items down to it. */
  lowerMaxBytes(bytes: number): void {
    this.maxBytes = Math.min(this.maxBytes, bytes);
    this.enforce();
  }

  append(item: T): void {
    this.items.push(item);
    this.bytes += this.options.sizeOf(item);
    this.enforce();
  }

  private enforce(): void {
    while (this.length > this.options.maxItems || this.bytes > this.maxBytes) {
      if (this.evictOldest() === undefined) break;
    }
  }

  /** Evicts the oldest item and returns it; undefined when nothing may go (empty, or keepNewest). */
  evictOldest(): T | undefined {
    if (this.length <= (this.options.keepNewest ? 1 : 0)) return undefined;
    const item = this.items[this.head]!;
    this.items[this.head++] = undefined;
    this.bytes -= this.options.sizeOf(item);
    this.evictedThrough = Math.max(this.evictedThrough, this.options.seqOf(item) ?? 0);
    this.options.onEvict?.(item);
    if (this.head > COMPACT_AFTER && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Retained items whose seq is above `afterSeq` (and any without a seq), oldest first. */
  *after(afterSeq: number): Generator<T> {
    for (let i = this.firstAfter(afterSeq); i < this.items.length; i++) yield this.items[i]!;
  }

  /** Forgets every retained item (they do not count as evicted). */
  clear(): void {
    this.items = [];
    this.head = 0;
    this.bytes = 0;
  }

  /** Index of the first retained item with seq > afterSeq (binary search: seqs never decrease). */
  private firstAfter(afterSeq: number): number {
    let lo = this.head;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const seq = this.options.seqOf(this.items[mid]!) ?? Number.POSITIVE_INFINITY;
      if (seq <= afterSeq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
