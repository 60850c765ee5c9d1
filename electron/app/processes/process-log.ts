// The app's ordered, bounded log of one process's events, as sent to renderers: what is replayed
// after a reload and what a renderer behind its window catches up from. It is the one copy of a
// process's output in the app (the client keeps events only until the app subscribes). Each log is
// bounded by itself and, with every other, by one OutputLogCap, which takes the oldest output of
// all first; a renderer that had not received what was dropped is sent a gap instead. Output bytes
// are packed into slabs (output-slabs) rather than kept one buffer per chunk.
import { BoundedSeqLog } from '../../../shared/bounded-seq-log';
import { lastSeqOf, type ProcessEventView } from '../../../shared/ipc';
import { OutputSlabs, type Slab } from './output-slabs';

export interface LogEntry {
  /** The event as sent to renderers (an output event's data is a view into the log's memory). */
  readonly event: ProcessEventView;
  /** Output bytes of this event (0 for non-output events). */
  readonly bytes: number;
  /** Cumulative output bytes of the process up to and including this event. */
  readonly endOffset: number;
  /** Order of appending across every log of one cap: the lowest is the app's oldest output. */
  readonly stamp: number;
}

type OutputEvent = Extract<ProcessEventView, { kind: 'output' }>;

/** An output event as retained: where its bytes are in a slab, not a buffer of its own. */
class OutputEntry implements LogEntry {
  constructor(
    readonly seq: number,
    private readonly stream: OutputEvent['stream'],
    private readonly slab: Slab,
    private readonly start: number,
    readonly bytes: number,
    readonly endOffset: number,
    readonly stamp: number,
  ) {}

  get event(): ProcessEventView {
    return {
      kind: 'output',
      seq: this.seq,
      stream: this.stream,
      data: this.slab.view(this.start, this.bytes),
    };
  }
}

/** The bound on output retained by all the app's process logs together. */
export class OutputLogCap {
  private readonly logs = new Set<ProcessLog>();
  private total = 0;
  private nextStamp = 0;

  constructor(readonly maxBytes: number) {}

  get retainedBytes(): number {
    return this.total;
  }

  /** @internal ProcessLog's side of the bookkeeping. */
  join(log: ProcessLog): void {
    this.logs.add(log);
  }

  /** @internal */
  leave(log: ProcessLog): void {
    this.logs.delete(log);
  }

  /** @internal */
  stamp(): number {
    return this.nextStamp++;
  }

  /** @internal */
  count(delta: number): void {
    this.total += delta;
  }

  /** Evicts the oldest retained event of all logs while over the bound (or until none can give). */
  enforce(): void {
    while (this.total > this.maxBytes) {
      let oldest: ProcessLog | null = null;
      let oldestStamp = Infinity;
      for (const log of this.logs) {
        const stamp = log.oldestEvictableStamp;
        if (stamp < oldestStamp) [oldest, oldestStamp] = [log, stamp];
      }
      if (oldest === null || !oldest.evictOldest()) return;
    }
  }
}

export class ProcessLog {
  private readonly log: BoundedSeqLog<LogEntry>;
  private slabs = new OutputSlabs();
  /** Output bytes ever appended. */
  totalBytes = 0;
  lastSeq = 0;
  /** Cumulative output offset at evictedThroughSeq. */
  evictedThroughOffset = 0;

  constructor(
    limitBytes: number,
    limitEvents: number,
    private readonly cap: OutputLogCap | null = null,
  ) {
    this.log = new BoundedSeqLog<LogEntry>({
      seqOf: (entry) => (entry instanceof OutputEntry ? entry.seq : lastSeqOf(entry.event)),
      sizeOf: (entry) => entry.bytes,
      maxBytes: limitBytes,
      maxItems: limitEvents,
      keepNewest: true,
      onEvict: (entry) => {
        this.evictedThroughOffset = entry.endOffset;
        this.cap?.count(-entry.bytes);
      },
    });
    cap?.join(this);
  }

  /** Every seq ≤ this has been evicted from the log (0: nothing was). */
  get evictedThroughSeq(): number {
    return this.log.evictedThroughSeq;
  }

  get retainedBytes(): number {
    return this.log.retainedBytes;
  }

  append(event: ProcessEventView, bytes: number): void {
    this.totalBytes += bytes;
    this.lastSeq = lastSeqOf(event);
    this.cap?.count(bytes);
    const stamp = this.cap?.stamp() ?? 0;
    if (event.kind === 'output' && bytes > 0) {
      const { slab, start } = this.slabs.store(event.data);
      this.log.append(new OutputEntry(event.seq, event.stream, slab, start, bytes, this.totalBytes, stamp));
    } else {
      this.log.append({ event, bytes, endOffset: this.totalBytes, stamp });
      // The process is done printing: the slab it was filling needs no room to spare.
      if (event.kind === 'exited' || event.kind === 'closed' || event.kind === 'failed') this.slabs.finish();
    }
    this.cap?.enforce();
  }

  get length(): number {
    return this.log.length;
  }

  /** Entries with seq > afterSeq, in order (possibly none). */
  after(afterSeq: number): Generator<LogEntry> {
    return this.log.after(afterSeq);
  }

  /** The stamp of the oldest entry the cap may take (the newest always stays); Infinity if none. */
  get oldestEvictableStamp(): number {
    if (this.log.length < 2 || this.log.retainedBytes === 0) return Infinity;
    const first = this.log.after(Number.NEGATIVE_INFINITY).next();
    return first.done ? Infinity : first.value.stamp;
  }

  evictOldest(): boolean {
    return this.log.evictOldest() !== undefined;
  }

  /** The process is gone: its output no longer counts against the cap. */
  release(): void {
    this.cap?.count(-this.log.retainedBytes);
    this.cap?.leave(this);
    this.log.clear();
    this.slabs = new OutputSlabs();
  }
}
