// The pre-subscribe buffer of one process: the events delivered while nobody listens (output that
// comes before the app subscribes, or between two subscribers), oldest evicted first beyond a count
// and byte bound. Events delivered to a listener are not kept here: the subscriber (the app's
// ProcessLog) holds the one retained copy. A later subscriber asking for seqs that were handed
// over or evicted gets a gap first, so nothing vanishes silently.
import { BoundedSeqLog } from '../../../shared/bounded-seq-log';
import type { ProcessEvent } from '../api';
import type { BudgetedLog, RetainedOutputBudget } from './retained-budget';

export interface EventLogLimits {
  maxEvents: number;
  maxBytes: number;
}

function sizeOf(event: ProcessEvent): number {
  return event.kind === 'output' ? event.data.byteLength : 0;
}

/** Highest seq an event covers (gaps cover a range); failed events carry none. */
export function lastSeqOf(event: ProcessEvent): number | null {
  switch (event.kind) {
    case 'gap':
      return event.toSeq;
    case 'failed':
      return null;
    default:
      return event.seq;
  }
}

export class EventLog implements BudgetedLog {
  private readonly log: BoundedSeqLog<ProcessEvent>;
  /** Highest seq delivered to a listener instead of kept, or handed over and dropped. */
  private passedThroughSeq = 0;

  /** `budget`: the client-wide bound this log also counts against, if any. */
  constructor(
    limits: EventLogLimits,
    private readonly budget: RetainedOutputBudget | null = null,
  ) {
    // `failed` has no seq, but it is terminal (nothing follows it), as the log requires.
    this.log = new BoundedSeqLog<ProcessEvent>({
      seqOf: lastSeqOf,
      sizeOf,
      maxBytes: limits.maxBytes,
      maxItems: limits.maxEvents,
      keepNewest: true,
      // The budget only counts here; it evicts in enforce().
      onEvict: (event) => this.budget?.count(-sizeOf(event)),
    });
    budget?.add(this);
  }

  get retainedBytes(): number {
    return this.log.retainedBytes;
  }

  append(event: ProcessEvent): void {
    this.budget?.count(sizeOf(event));
    this.log.append(event);
    this.budget?.enforce();
  }

  /** `event` went to a listener: it is not kept, and a later subscriber before it gets a gap. */
  passOver(event: ProcessEvent): void {
    this.passedThroughSeq = Math.max(this.passedThroughSeq, lastSeqOf(event) ?? 0);
  }

  /** The retained events went to the first listener: they are dropped, as if passed over. */
  handOver(): void {
    for (const event of this.log.after(Number.NEGATIVE_INFINITY)) this.passOver(event);
    this.budget?.count(-this.log.retainedBytes);
    this.log.clear();
  }

  evictOldest(): boolean {
    return this.log.evictOldest() !== undefined;
  }

  /**
   * Retained events after `afterSeq` (all retained when undefined). If the caller asks for seqs the
   * log already evicted or passed over, a gap event for them comes first, so the loss stays visible.
   */
  replay(afterSeq?: number): ProcessEvent[] {
    const out: ProcessEvent[] = [];
    const evictedThrough = Math.max(this.log.evictedThroughSeq, this.passedThroughSeq);
    if (afterSeq !== undefined && afterSeq < evictedThrough) {
      out.push({ kind: 'gap', fromSeq: afterSeq + 1, toSeq: evictedThrough, at: Date.now() });
    }
    for (const event of this.log.after(afterSeq ?? Number.NEGATIVE_INFINITY)) out.push(event);
    return out;
  }

  /** Forgets every event and leaves the budget. */
  clear(): void {
    this.budget?.count(-this.log.retainedBytes);
    this.budget?.remove(this);
    this.log.clear();
  }
}
