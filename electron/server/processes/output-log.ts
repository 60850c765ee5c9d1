// The retained output of one process: chunks with their seq, bounded by bytes and by count
// (oldest evicted first, silently), and the `process/read` selection rules.
import type { OutputStream } from '../../../shared/protocol';

export interface LogChunk {
  seq: number;
  stream: OutputStream;
  data: Buffer;
}

export class OutputLog {
  private chunks: LogChunk[] = [];
  private head = 0;
  private bytes = 0;

  constructor(
    private maxBytes: number,
    private readonly maxChunks: number,
  ) {}

  get retainedBytes(): number {
    return this.bytes;
  }

  get retainedChunks(): number {
    return this.chunks.length - this.head;
  }

  /** Raises the byte bound (never lowers it), e.g. to cover a flow-control window. */
  ensureCapacity(bytes: number): void {
    this.maxBytes = Math.max(this.maxBytes, bytes);
  }

  append(chunk: LogChunk): void {
    this.chunks.push(chunk);
    this.bytes += chunk.data.length;
    while (this.retainedChunks > this.maxChunks || (this.bytes > this.maxBytes && this.retainedChunks > 0)) {
      const evicted = this.chunks[this.head]!;
      this.bytes -= evicted.data.length;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }

  /**
   * Chunks with seq > afterSeq in order, never split: the first is always included, later ones
   * only while the total stays within maxBytes, and collection stops once the total reaches it.
   */
  select(afterSeq: number, maxBytes: number | null): LogChunk[] {
    let lo = this.head;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.chunks[mid]!.seq <= afterSeq) lo = mid + 1;
      else hi = mid;
    }
    const picked: LogChunk[] = [];
    let total = 0;
    for (let i = lo; i < this.chunks.length; i++) {
      const chunk = this.chunks[i]!;
      if (maxBytes !== null) {
        if (picked.length > 0 && total + chunk.data.length > maxBytes) break;
      }
      picked.push(chunk);
      total += chunk.data.length;
      if (maxBytes !== null && total >= maxBytes) break;
    }
    return picked;
  }
}
