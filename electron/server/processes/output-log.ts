import { BoundedSeqLog } from '../../../shared/bounded-seq-log';
import type { OutputStream } from '../../../shared/protocol';

export interface LogChunk {
  seq: number;
  stream: OutputStream;
  /** With a lease, a view of the reader's ring (reader/output-ring.ts), released on eviction. */
  data: Buffer;
  lease: { release(): void } | null;
}

export class OutputLog {
  private readonly log: BoundedSeqLog<LogChunk>;

  constructor(maxBytes: number, maxChunks: number) {
    this.log = new BoundedSeqLog<LogChunk>({
      seqOf: (chunk) => chunk.seq,
      sizeOf: (chunk) => chunk.data.length,
      maxBytes,
      maxItems: maxChunks,
      keepNewest: false,
      // Chunks leave in seq order, so each stream's ring is handed back in order too.
      onEvict: (chunk) => chunk.lease?.release(),
    });
  }

  get retainedBytes(): number {
    return this.log.retainedBytes;
  }

  get retainedChunks(): number {
    return this.log.length;
  }

  /** Highest seq evicted so far (0 if nothing was). */
  get evictedThroughSeq(): number {
    return this.log.evictedThroughSeq;
  }

  /** Raises the byte bound (never lowers it), e.g. to cover a flow-control window. */
  ensureCapacity(bytes: number): void {
    this.log.raiseMaxBytes(bytes);
  }

  /** Lowers the byte bound (never raises it), evicting the oldest chunks down to it. */
  lowerCapacity(bytes: number): void {
    this.log.lowerMaxBytes(bytes);
  }

  append(chunk: LogChunk): void {
    this.log.append(chunk);
  }

  /**
   * Moves every retained chunk that lies in a ring into memory of its own, once the process's
   * output ended, and hands the rings back whole: the tail may be kept for a long while, and
   * would pin the whole ring, which the reader thread can give a later stream instead.
   */
  detachFromRings(): void {
    for (const chunk of this.log.after(0)) {
      const lease = chunk.lease;
      if (!lease) continue;
      chunk.data = Buffer.from(chunk.data);
      chunk.lease = null;
      // In seq order, like evictions: each release hands back everything before it too.
      lease.release();
    }
  }

  /**
   * Chunks with seq > afterSeq in order, never split: the first is always included, later ones
   * only while the total stays within maxBytes, and collection stops once the total reaches it.
   * A chunk that lies in a ring is copied out: what is selected may outlive the chunk's stay in
   * the log, and the reader writes over its memory once it was evicted.
   */
  select(afterSeq: number, maxBytes: number | null): LogChunk[] {
    const picked: LogChunk[] = [];
    let total = 0;
    for (const chunk of this.log.after(afterSeq)) {
      if (maxBytes !== null) {
        if (picked.length > 0 && total + chunk.data.length > maxBytes) break;
      }
      picked.push(chunk.lease ? { ...chunk, data: Buffer.from(chunk.data), lease: null } : chunk);
      total += chunk.data.length;
      if (maxBytes !== null && total >= maxBytes) break;
    }
    return picked;
  }
}
