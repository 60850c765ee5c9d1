// Link health of one environment: RTT samples and percentiles over a recent window, last contact,
// degraded/stalled flags, reconnect count and a bounded history of state changes. It only keeps
// the books; the client feeds it samples and state changes.
import type { ConnectionState, HealthSnapshot, StateChange } from '../api';
import {
  DEGRADED_RTT_MS,
  HEALTH_HISTORY_LIMIT,
  HEALTH_MAX_SAMPLES,
  HEALTH_WINDOW_MS,
  STALLED_AFTER_MS,
} from '../constants';

/** Nearest-rank percentile of ascending `sorted` values. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[rank - 1] ?? null;
}

export class HealthMonitor {
  private samples: Array<[number, number]> = [];
  private readonly history: StateChange[] = [];
  private reconnects = 0;
  private lastState: ConnectionState['kind'] | null = null;

  addSample(rttMs: number, at = Date.now()): void {
    this.samples.push([at, rttMs]);
    const cutoff = at - HEALTH_WINDOW_MS;
    while (this.samples.length > HEALTH_MAX_SAMPLES || (this.samples[0] && this.samples[0][0] < cutoff)) {
      this.samples.shift();
    }
  }

  recordState(state: ConnectionState, reason?: string): void {
    if (this.lastState === 'reconnecting' && state.kind === 'connected') this.reconnects += 1;
    this.lastState = state.kind;
    this.history.push(
      reason === undefined
        ? { at: Date.now(), state: state.kind }
        : { at: Date.now(), state: state.kind, reason },
    );
    if (this.history.length > HEALTH_HISTORY_LIMIT) this.history.shift();
  }

  /** A stall of the connected link began, or ended with a reply (after `silentMs` without one). */
  recordStall(stalled: boolean, silentMs: number, at = Date.now()): void {
    const seconds = Math.round(silentMs / 1000);
    this.history.push(
      stalled
        ? { at, state: 'stalled', reason: `no reply for ${seconds} s` }
        : { at, state: 'connected', reason: `replies again after ${seconds} s of silence` },
    );
    if (this.history.length > HEALTH_HISTORY_LIMIT) this.history.shift();
  }

  /** Clears RTT samples (a new connection's link may be a different path). */
  resetSamples(): void {
    this.samples = [];
  }

  snapshot(link: {
    lastContactAt: number | null;
    stalled: boolean;
    /** When the link gives up its stall (the connection's giveUpAt); absent: never. */
    stallReconnectAt?: number | null;
    probeAgeMs: number | null;
  }): HealthSnapshot {
    const sorted = this.samples.map(([, rtt]) => rtt).sort((a, b) => a - b);
    const p50 = percentile(sorted, 0.5);
    const p95 = percentile(sorted, 0.95);
    const last = this.samples[this.samples.length - 1];
    return {
      rttSamples: this.samples.map(([at, rtt]) => [at, rtt]),
      rttP50Ms: p50,
      rttP95Ms: p95,
      lastRttMs: last ? last[1] : null,
      lastContactAt: link.lastContactAt,
      degraded:
        (p95 !== null && p95 > DEGRADED_RTT_MS) ||
        (link.probeAgeMs !== null && link.probeAgeMs > DEGRADED_RTT_MS),
      stalled: link.stalled,
      stallReconnectAt: link.stalled ? (link.stallReconnectAt ?? null) : null,
      reconnectCount: this.reconnects,
      history: [...this.history],
      thresholds: { degradedRttMs: DEGRADED_RTT_MS, stalledAfterMs: STALLED_AFTER_MS },
    };
  }
}
