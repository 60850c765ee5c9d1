// One client's bound on retained output across all its processes: what their pre-subscribe buffers
// (EventLog) hold while nobody listens. Each keeps its own bound too; this one stops a hundred
// processes from each keeping theirs. Over the bound,
// the log holding the most gives up its oldest event, so a loud process pays, not a quiet one, and
// an evicted stretch is replayed as a gap like any other.

/** What the budget needs from a log. */
export interface BudgetedLog {
  readonly retainedBytes: number;
  /** Drops the oldest event; false when the log must keep what it has (its newest event). */
  evictOldest(): boolean;
}

export class RetainedOutputBudget {
  private readonly logs = new Set<BudgetedLog>();
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  get retainedBytes(): number {
    return this.total;
  }

  add(log: BudgetedLog): void {
    this.logs.add(log);
  }

  remove(log: BudgetedLog): void {
    this.logs.delete(log);
  }

  /** A log's retained bytes changed by `delta`. */
  count(delta: number): void {
    this.total += delta;
  }

  /** Evicts, largest log first, while over the bound (or until no log can give anything up). */
  enforce(): void {
    while (this.total > this.maxBytes) {
      const largest = this.largest();
      if (largest === null || !largest.evictOldest()) return;
    }
  }

  private largest(): BudgetedLog | null {
    let found: BudgetedLog | null = null;
    for (const log of this.logs) if (found === null || log.retainedBytes > found.retainedBytes) found = log;
    return found;
  }
}
