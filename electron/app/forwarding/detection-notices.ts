// What the renderers are told of detected forwards (forwards.detected), so that detection never
// becomes a storm of notices: every port is announced once per environment and run of the app,
// the ports found within a short while go out together as one notice (the renderer summarises
// several), and an environment gets at most one notice every NOTICE_GAP_MS; what is found
// meanwhile waits for the next. Both detectors (printed-ports.ts, socket-ports.ts) go through here.
import type { ForwardView } from '../../../shared/ipc';

/** How long after a first detection others are gathered into its notice. */
export const NOTICE_GATHER_MS = 300;
/** The least time between two notices of one environment. */
export const NOTICE_GAP_MS = 5_000;
/** The longest a notice waits for a detector that is still settling (see `settling`). */
export const NOTICE_SETTLE_MAX_MS = 3_000;

export interface DetectionNoticesDeps {
  /** The forwards of `envId` now: a forward stopped before its notice went out is not announced. */
  list(envId: string): ForwardView[];
  send(envId: string, forwards: ForwardView[]): void;
  /** A detector is still finding ports of the same burst: the notice waits (at most NOTICE_SETTLE_MAX_MS). */
  settling?(envId: string): boolean;
}

export class DetectionNotices {
  /** `envId\0port` of every port announced (or about to be) this run. */
  private readonly announced = new Set<string>();
  private readonly pending = new Map<string, string[]>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly lastSentAt = new Map<string, number>();
  /** When each environment's pending notice got its first port. */
  private readonly pendingSince = new Map<string, number>();

  constructor(
    private readonly deps: DetectionNoticesDeps,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A forward detection made: announced with the others found about now, unless its port was already. */
  detected(envId: string, forward: ForwardView): void {
    const key = `${envId}\0${forward.port}`;
    if (this.announced.has(key)) return;
    this.announced.add(key);
    this.pending.set(envId, [...(this.pending.get(envId) ?? []), forward.id]);
    if (this.timers.has(envId)) return;
    this.pendingSince.set(envId, this.clock());
    const last = this.lastSentAt.get(envId);
    this.arm(envId, Math.max(NOTICE_GATHER_MS, last === undefined ? 0 : last + NOTICE_GAP_MS - this.clock()));
  }

  private arm(envId: string, waitMs: number): void {
    const timer = setTimeout(() => this.flush(envId), waitMs);
    timer.unref?.();
    this.timers.set(envId, timer);
  }

  environmentRemoved(envId: string): void {
    clearTimeout(this.timers.get(envId));
    this.timers.delete(envId);
    this.pending.delete(envId);
    this.pendingSince.delete(envId);
  }

  close(): void {
    for (const envId of [...this.timers.keys()]) this.environmentRemoved(envId);
  }

  private flush(envId: string): void {
    this.timers.delete(envId);
    const since = this.pendingSince.get(envId) ?? this.clock();
    if (this.deps.settling?.(envId) && this.clock() - since < NOTICE_SETTLE_MAX_MS) {
      this.arm(envId, NOTICE_GATHER_MS);
      return;
    }
    this.pendingSince.delete(envId);
    const ids = new Set(this.pending.get(envId) ?? []);
    this.pending.delete(envId);
    let current: ForwardView[];
    try {
      current = this.deps.list(envId);
    } catch {
      return; // The environment is gone.
    }
    // As they are now (bound port, state), in port order.
    const forwards = current.filter((f) => ids.has(f.id)).sort((a, b) => a.port - b.port);
    if (forwards.length === 0) return;
    this.lastSentAt.set(envId, this.clock());
    this.deps.send(envId, forwards);
  }
}
