// When port detection asks a host for its listening ports: only while the environment is worth it
// (connected, with processes Tether started running: `active`), soon after something that may
// open a port (a process started or printed, the link came back: `wake`), and then less and less
// often while nothing changes. Idle or disconnected environments are not polled at all.

/** The first poll after a wake, and the interval after a poll that found a change. */
export const POLL_MIN_MS = 1_000;
/** The longest interval, reached by doubling while polls find nothing new. */
export const POLL_MAX_MS = 8_000;

export interface ListeningPollDeps {
  /** Whether `envId` is to be polled now. */
  active(envId: string): boolean;
  /** One poll; resolves true when it found something other than the last time. */
  poll(envId: string): Promise<boolean>;
}

interface EnvPoll {
  timer: NodeJS.Timeout | null;
  /** When the timer fires (epoch ms). */
  dueAt: number;
  intervalMs: number;
  polling: boolean;
  /** Woken while a poll was in flight: the next comes after POLL_MIN_MS, whatever that poll found. */
  woken: boolean;
}

export class ListeningPoll {
  private readonly byEnv = new Map<string, EnvPoll>();
  private closed = false;

  constructor(
    private readonly deps: ListeningPollDeps,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Something in `envId` may have opened or closed a port: poll within POLL_MIN_MS. */
  wake(envId: string): void {
    if (this.closed) return;
    const entry = this.byEnv.get(envId);
    // The usual case (output of a busy process): a poll is due soon already, nothing to do.
    if (entry && (entry.polling || entry.dueAt <= this.clock() + POLL_MIN_MS)) {
      entry.intervalMs = POLL_MIN_MS;
      if (entry.polling) entry.woken = true;
      return;
    }
    if (!this.deps.active(envId)) return;
    if (entry?.timer) clearTimeout(entry.timer);
    const next: EnvPoll = entry ?? {
      timer: null,
      dueAt: 0,
      intervalMs: POLL_MIN_MS,
      polling: false,
      woken: false,
    };
    next.intervalMs = POLL_MIN_MS;
    this.byEnv.set(envId, next);
    this.schedule(envId, next, POLL_MIN_MS);
  }

  /** No more polls of `envId` (disconnected, removed) until the next wake. */
  stop(envId: string): void {
    const entry = this.byEnv.get(envId);
    if (entry?.timer) clearTimeout(entry.timer);
    this.byEnv.delete(envId);
  }

  /** Whether `envId` has a poll pending or in flight (tests and the idle check). */
  isPolling(envId: string): boolean {
    return this.byEnv.has(envId);
  }

  close(): void {
    this.closed = true;
    for (const envId of [...this.byEnv.keys()]) this.stop(envId);
  }

  private schedule(envId: string, entry: EnvPoll, delayMs: number): void {
    entry.dueAt = this.clock() + delayMs;
    entry.timer = setTimeout(() => void this.tick(envId, entry), delayMs);
    entry.timer.unref?.();
  }

  private async tick(envId: string, entry: EnvPoll): Promise<void> {
    entry.timer = null;
    if (this.byEnv.get(envId) !== entry) return;
    if (!this.deps.active(envId)) {
      this.byEnv.delete(envId);
      return;
    }
    entry.polling = true;
    entry.woken = false;
    const changed = await this.deps.poll(envId).catch(() => false);
    entry.polling = false;
    if (this.closed || this.byEnv.get(envId) !== entry) return;
    if (!this.deps.active(envId)) {
      this.byEnv.delete(envId);
      return;
    }
    entry.intervalMs =
      changed || entry.woken
        ? POLL_MIN_MS
        : Math.min(POLL_MAX_MS, Math.max(entry.intervalMs, POLL_MIN_MS) * 2);
    this.schedule(envId, entry, entry.intervalMs);
  }
}
