// Delay before each reconnect attempt of one outage: the first attempt goes at once, later ones
// wait a jittered, doubling delay up to a cap, so a flapping link is neither hammered nor left idle.
import { BACKOFF_FACTOR, BACKOFF_INITIAL_MS, BACKOFF_JITTER, BACKOFF_MAX_MS } from './constants';

/** Milliseconds to wait before attempt `attempt` (1-based) of an outage. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  if (attempt <= 1) return 0;
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_INITIAL_MS * BACKOFF_FACTOR ** (attempt - 2));
  return Math.round(base * (1 + BACKOFF_JITTER * (2 * random() - 1)));
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
