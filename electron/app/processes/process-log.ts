// The app's ordered, bounded log of one process's events, as sent to renderers: what is replayed
// after a reload, and the buffer in front of renderers that are behind. Oldest events are dropped
// beyond the limits; droppedThroughSeq tells readers which seqs are gone.
import type { ProcessEventView } from '../../../shared/ipc';

export interface LogEntry {
  event: ProcessEventView;
  /** Output bytes of this event (0 for non-output events). */
  bytes: number;
  /** Cumulative output bytes of the process up to and including this event. */
  endOffset: number;
}

export class ProcessLog {
  private entries: LogEntry[] = [];
  private head = 0;
  private retainedBytes = 0;
  /** Output bytes ever appended. */
  totalBytes = 0;
  lastSeq = 0;
  /** Every seq ≤ this has been dropped from the log (0: nothing dropped). */
  droppedThroughSeq = 0;
  /** Cumulative output offset at droppedThroughSeq. */
  droppedThroughOffset = 0;

  constructor(
    private readonly limitBytes: number,
    private readonly limitEvents: number,
  ) {}

  append(event: ProcessEventView, bytes: number): void {
    this.totalBytes += bytes;
    this.entries.push({ event, bytes, endOffset: this.totalBytes });
    this.retainedBytes += bytes;
    this.lastSeq = event.seq;
    while (this.length > 1 && (this.retainedBytes > this.limitBytes || this.length > this.limitEvents)) {
      const dropped = this.entries[this.head++]!;
      this.retainedBytes -= dropped.bytes;
      this.droppedThroughSeq = dropped.event.seq;
      this.droppedThroughOffset = dropped.endOffset;
    }
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  get length(): number {
    return this.entries.length - this.head;
  }

  /** Entries with seq > afterSeq, in order (possibly none). */
  *after(afterSeq: number): Generator<LogEntry> {
    let lo = this.head;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid]!.event.seq <= afterSeq) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.entries.length; i++) yield this.entries[i]!;
  }
}
