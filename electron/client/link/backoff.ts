// Delay before each reconnect attempt of one outage: the first attempt goes at once, later ones
// follow a jittered ramp up to a steady interval, so a flapping link is neither hammered nor left idle.
import { BACKOFF_JITTER, BACKOFF_RAMP_MS, BACKOFF_STEADY_MS } from '../constants';

/** The delays of an outage (the client's `backoff` option replaces it, e.g. for tests). */
export interface BackoffSchedule {
  /** Waits before attempts 2, 3, … in order. */
  rampMs: readonly number[];
  /** The wait before every attempt after the ramp. */
  steadyMs: number;
  /** Each wait is scaled by a random factor in [1 - jitter, 1 + jitter]. */
  jitter: number;
}

export const DEFAULT_BACKOFF: BackoffSchedule = {
  rampMs: BACKOFF_RAMP_MS,
  steadyMs: BACKOFF_STEADY_MS,
  jitter: BACKOFF_JITTER,
};

/** Milliseconds to wait before attempt `attempt` (1-based) of an outage. */
export function backoffDelay(
  attempt: number,
  schedule: BackoffSchedule = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  if (attempt <= 1) return 0;
  const base = schedule.rampMs[attempt - 2] ?? schedule.steadyMs;
  return Math.round(base * (1 + schedule.jitter * (2 * random() - 1)));
}

/** One wait between attempts: `done` resolves after the delay, on wake() (retry now), or on abort. */
export class BackoffWait {
  /** Epoch ms at which the wait ends by itself. */
  readonly retryAt: number;
  readonly done: Promise<void>;
  private end: () => void = () => undefined;

  constructor(delayMs: number, signal: AbortSignal) {
    this.retryAt = Date.now() + delayMs;
    this.done = new Promise((resolve) => {
      const end = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', end);
        resolve();
      };
      const timer = setTimeout(end, delayMs);
      signal.addEventListener('abort', end, { once: true });
      this.end = end;
    });
  }

  wake(): void {
    this.end();
  }
}
