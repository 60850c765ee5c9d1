// Round-trip probing of one live connection: an `environment/status` call at once and then every
// HEALTH_SAMPLE_INTERVAL_MS, never two outstanding. Created when a connection is installed and
// disposed when it is lost; it measures, the HealthMonitor keeps the books.
import { Method } from '../../../shared/protocol';
import type { ExecServerConnection } from './connection';
import { HEALTH_SAMPLE_INTERVAL_MS, PROBE_TIMEOUT_MS } from '../constants';

export interface RttProbeEvents {
  /** A probe was answered after `rttMs` (rounded to 0.01 ms). */
  onSample(rttMs: number): void;
  /** A probe ended, answered or not: the outstanding probe's age no longer counts. */
  onSettled(): void;
  /** The sampling interval passed (a probe was sent unless one is still outstanding). */
  onTick(): void;
}

export class RttProbe {
  private timer: NodeJS.Timeout | null = null;
  /** Epoch ms at which the outstanding probe was sent (null: none outstanding). */
  private outstandingSince: number | null = null;

  constructor(
    private readonly connection: ExecServerConnection,
    private readonly events: RttProbeEvents,
  ) {}

  /** How long the outstanding probe has waited, or null if none is outstanding. */
  get outstandingMs(): number | null {
    return this.outstandingSince === null ? null : Date.now() - this.outstandingSince;
  }

  start(): void {
    this.send();
    this.timer = setInterval(() => {
      this.send();
      this.events.onTick();
    }, HEALTH_SAMPLE_INTERVAL_MS);
    this.timer.unref();
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.outstandingSince = null;
  }

  private send(): void {
    if (this.outstandingSince !== null || this.connection.closed) return;
    const sentAt = Date.now();
    const t0 = performance.now();
    this.outstandingSince = sentAt;
    this.connection
      .call(Method.environmentStatus, undefined, { timeoutMs: PROBE_TIMEOUT_MS })
      .then(
        () => this.events.onSample(Math.round((performance.now() - t0) * 100) / 100),
        () => undefined,
      )
      .finally(() => {
        if (this.outstandingSince === sentAt) this.outstandingSince = null;
        this.events.onSettled();
      });
  }
}
