// Delay before each reconnect attempt of one outage: the first attempt goes at once, later ones
// wait a jittered, doubling delay up to a cap, so a flapping link is neither hammered nor left idle.
import { BACKOFF_FACTOR, BACKOFF_INITIAL_MS, BACKOFF_JITTER, BACKOFF_MAX_MS } from './constants';

/** Milliseconds to wait before attempt `attempt` (1-based) of an outage. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  if (attempt <= 1) return 0;
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_INITIAL_MS * BACKOFF_FACTOR ** (attempt - 2));
  return Math.round(base * (1 + BACKOFF_JITTER * (2 * random() - 1)));
}
