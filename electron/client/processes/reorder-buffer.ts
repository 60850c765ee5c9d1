// Holds a process's events that arrived ahead of a missing seq, keyed by seq, bounded in count and
// bytes. The owner (ProcessSession) decides what overflow means; this only keeps the books.
import type { WireProcessEvent } from '../link/connection';
import { wireByteLength } from '../link/message-decoder';

/** A buffered entry: a wire event, or a gap (seqs fromSeq..toSeq known to be lost). */
export type ReorderEntry = WireProcessEvent | { kind: 'gap'; fromSeq: number; toSeq: number };

/** The first seq an entry covers: its key here (a gap is held at its first seq). */
function firstSeqOf(entry: ReorderEntry): number {
  return entry.kind === 'gap' ? entry.fromSeq : entry.seq;
}

export interface ReorderLimits {
  maxEvents: number;
  maxBytes: number;
}

function sizeOf(entry: ReorderEntry): number {
  return entry.kind === 'output' ? wireByteLength(entry.chunk) : 0;
}

export class ReorderBuffer {
  private readonly entries = new Map<number, ReorderEntry>();
  private totalBytes = 0;

  constructor(private readonly limits: ReorderLimits) {}

  get size(): number {
    return this.entries.size;
  }

  has(seq: number): boolean {
    return this.entries.has(seq);
  }

  hasKind(kind: ReorderEntry['kind']): boolean {
    for (const entry of this.entries.values()) if (entry.kind === kind) return true;
    return false;
  }

  /** Adds `entry` unless it would break the bounds (ignored when `force`); returns whether it was kept. */
  add(entry: ReorderEntry, force = false): boolean {
    const seq = firstSeqOf(entry);
    if (this.entries.has(seq)) return true;
    const bytes = sizeOf(entry);
    if (
      !force &&
      (this.entries.size + 1 > this.limits.maxEvents || this.totalBytes + bytes > this.limits.maxBytes)
    ) {
      return false;
    }
    this.entries.set(seq, entry);
    this.totalBytes += bytes;
    return true;
  }

  /** The seqs held, as [first, last] per entry (a gap covers a range). */
  spans(): Array<[number, number]> {
    return [...this.entries.values()].map((e) => [firstSeqOf(e), e.kind === 'gap' ? e.toSeq : e.seq]);
  }

  take(seq: number): ReorderEntry | undefined {
    const entry = this.entries.get(seq);
    if (entry) {
      this.entries.delete(seq);
      this.totalBytes -= sizeOf(entry);
    }
    return entry;
  }

  /** Drops entries at or below `seq` (already delivered by other means). */
  dropThrough(seq: number): void {
    for (const key of [...this.entries.keys()]) if (key <= seq) this.take(key);
  }

  clear(): void {
    this.entries.clear();
    this.totalBytes = 0;
  }
}
