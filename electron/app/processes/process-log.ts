// The app's ordered, bounded log of one process's events, as sent to renderers: what is replayed
import { BoundedSeqLog } from '../../../shared/bounded-seq-log';
import { lastSeqOf, type ProcessEventView } from '../../../shared/ipc';

export interface LogEntry {
  event: ProcessEventView;
  /** Output bytes of this event (0 for non-output events). */
  bytes: number;
  /** Cumulative output bytes of the process up to and including this event. */
  endOffset: number;
}

export class ProcessLog {
  private readonly log: BoundedSeqLog<LogEntry>;
  /** Output bytes ever appended. */
  totalBytes = 0;
  lastSeq = 0;
  /** Cumulative output offset at evictedThroughSeq. */
  evictedThroughOffset = 0;

  constructor(limitBytes: number, limitEvents: number) {
    this.log = new BoundedSeqLog<LogEntry>({
      seqOf: (entry) => lastSeqOf(entry.event),
      sizeOf: (entry) => entry.bytes,
      maxBytes: limitBytes,
      maxItems: limitEvents,
      keepNewest: true,
      onEvict: (entry) => {
        this.evictedThroughOffset = entry.endOffset;
      },
    });
  }

  /** Every seq ≤ this has been evicted from the log (0: nothing was). */
  get evictedThroughSeq(): number {
    return this.log.evictedThroughSeq;
  }

  append(event: ProcessEventView, bytes: number): void {
    this.totalBytes += bytes;
    this.lastSeq = lastSeqOf(event);
    this.log.append({ event, bytes, endOffset: this.totalBytes });
  }

  get length(): number {
    return this.log.length;
  }

  /** Entries with seq > afterSeq, in order (possibly none). */
  after(afterSeq: number): Generator<LogEntry> {
    return this.log.after(afterSeq);
  }
}
