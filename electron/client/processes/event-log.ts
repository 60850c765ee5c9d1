// The retained event log of one process: the delivered events, oldest evicted first beyond a count
// and byte bound, replayed to late subscribers (a renderer reload) from any seq.
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
  private events: ProcessEvent[] = [];
  private head = 0;
  private bytes = 0;
  /** Highest seq evicted so far (0 if nothing was). */
  private evictedThrough = 0;

  /** `budget`: the client-wide bound this log also counts against, if any. */
  constructor(
    private readonly limits: EventLogLimits,
    private readonly budget: RetainedOutputBudget | null = null,
  ) {
    budget?.add(this);
  }

  get retainedBytes(): number {
    return this.bytes;
  }

  append(event: ProcessEvent): void {
    this.events.push(event);
    this.resize(sizeOf(event));
    while (
      this.events.length - this.head > this.limits.maxEvents ||
      (this.bytes > this.limits.maxBytes && this.events.length - this.head > 1)
    ) {
      this.evictOldest();
    }
    this.budget?.enforce();
  }

  evictOldest(): boolean {
    if (this.events.length - this.head <= 1) return false;
    const old = this.events[this.head++]!;
    this.evictedThrough = Math.max(this.evictedThrough, lastSeqOf(old) ?? 0);
    this.resize(-sizeOf(old));
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
    return true;
  }

  /** Counts `delta` here and in the budget (which evicts only in enforce()). */
  private resize(delta: number): void {
    this.bytes += delta;
    this.budget?.count(delta);
  }

  /**
   * Retained events after `afterSeq` (all retained when undefined). If the caller asks for seqs the
   * log already evicted, a gap event for them comes first, so the loss stays visible.
   */
  replay(afterSeq?: number): ProcessEvent[] {
    const out: ProcessEvent[] = [];
    if (afterSeq !== undefined && afterSeq < this.evictedThrough) {
      out.push({ kind: 'gap', fromSeq: afterSeq + 1, toSeq: this.evictedThrough, at: Date.now() });
    }
    for (let i = this.head; i < this.events.length; i++) {
      const event = this.events[i]!;
      const last = lastSeqOf(event);
      if (afterSeq === undefined || last === null || last > afterSeq) out.push(event);
    }
    return out;
  }

  /** Forgets every event and leaves the budget. */
  clear(): void {
    this.resize(-this.bytes);
    this.budget?.remove(this);
    this.events = [];
    this.head = 0;
  }
}
