// One "the network may be back" sign (wake, unlock, online, focus) or Reconnect all reaches every
// waiting environment at once; retrying them all in the same instant sends a fleet's handshakes to
// its servers together. The retries are spread at random over a window that grows with their
// number: one environment still retries at once, a hundred over two seconds.

/** Window added per environment beyond the first. */
export const RETRY_SPREAD_PER_ENVIRONMENT_MS = 20;
/** The longest window, so that even a large fleet is back within a moment of the sign. */
export const RETRY_SPREAD_MAX_MS = 2_000;

/** The delay before each of `count` retries, in order: uniform over the window. */
export function retryDelays(count: number, random: () => number = Math.random): number[] {
  const window = Math.min(RETRY_SPREAD_MAX_MS, Math.max(0, count - 1) * RETRY_SPREAD_PER_ENVIRONMENT_MS);
  return Array.from({ length: count }, () => (window === 0 ? 0 : Math.floor(random() * window)));
}

/** Runs each of `runs` after its spread delay; a later spread replaces the retries still waiting. */
export class RetrySpreader {
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly random: () => number = Math.random) {}

  spread(runs: Array<() => void>): void {
    this.cancel();
    retryDelays(runs.length, this.random).forEach((delay, i) => {
      const run = runs[i]!;
      if (delay === 0) {
        run();
        return;
      }
      const timer = setTimeout(run, delay);
      timer.unref?.();
      this.timers.push(timer);
    });
  }

  cancel(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
  }
}
