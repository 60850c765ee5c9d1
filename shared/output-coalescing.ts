// When a batch of output leaves: at once after a quiet spell (a keystroke's echo must not wait) or
// once it is big enough; otherwise after a short wait, so the many small reads of a busy stream
// travel together. Pure: the caller passes the clock and owns the batch and its timer.

export interface OutputCoalescingPolicy {
  /** Output arriving more than this long after the previous arrival ends a quiet spell. */
  readonly quietMs: number;
  /** A batch holding this many bytes leaves at once. */
  readonly maxBytes: number;
  /** Longest a batch waits after the arrival that asked for the wait. */
  readonly delayMs: number;
  /**
   * Longest a batch waits after the previous flush, for callers that bound how often batches leave
   * (they report each flush with `flushed`). Without it only `delayMs` bounds the wait.
   */
  readonly maxIntervalMs?: number;
}

/** The coalescing state of one batch stream: when output last arrived and when it last left. */
export class OutputCoalescer {
  private lastArrivalAt = -Infinity;
  private lastFlushAt = -Infinity;

  constructor(private readonly policy: OutputCoalescingPolicy) {}

  /**
   * Records output arriving at `now` (milliseconds on any monotonic clock), leaving `pendingBytes`
   * in the batch, this arrival included. Returns how long the batch may wait: 0 means send it now.
   * A caller whose timer is already armed keeps it, so the first wait bounds the whole batch.
   */
  arrive(now: number, pendingBytes: number): number {
    const quiet = now - this.lastArrivalAt > this.policy.quietMs;
    this.lastArrivalAt = now;
    if (quiet || pendingBytes >= this.policy.maxBytes) return 0;
    const untilInterval =
      this.policy.maxIntervalMs === undefined
        ? Infinity
        : this.policy.maxIntervalMs - (now - this.lastFlushAt);
    return Math.max(0, Math.min(this.policy.delayMs, untilInterval));
  }

  /** Records that a batch left at `now`; only `maxIntervalMs` looks at it. */
  flushed(now: number): void {
    this.lastFlushAt = now;
  }
}
