// HealthMonitor's books: the RTT window by age and by count (exact at the edges), percentiles of
// unsorted samples, the degraded thresholds, reconnect counting and the bounded state history.
import { describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../../../electron/client/api';
import {
  DEGRADED_RTT_MS,
  HEALTH_HISTORY_LIMIT,
  HEALTH_MAX_SAMPLES,
  HEALTH_WINDOW_MS,
  STALLED_AFTER_MS,
} from '../../../../electron/client/constants';
import { HealthMonitor, percentile } from '../../../../electron/client/link/health-monitor';

const link = { lastContactAt: 7, stalled: false, probeAgeMs: null };
const connected: ConnectionState = { kind: 'connected', since: 1, sessionId: 's' };
const reconnecting: ConnectionState = {
  kind: 'reconnecting',
  since: 1,
  attempt: 1,
  nextRetryAt: null,
  reason: 'x',
  sessionHeldUntil: null,
  deadlineAt: null,
};
const connecting: ConnectionState = { kind: 'connecting', since: 1 };

describe('percentile', () => {
  it('is null for no samples and the nearest rank otherwise', () => {
    expect(percentile([], 0.5)).toBeNull();
    expect(percentile([7], 0.5)).toBe(7);
    expect(percentile([7], 0)).toBe(7);
    expect(percentile([1, 2, 3], 0.95)).toBe(3);
  });
});

describe('HealthMonitor samples', () => {
  it('reports the samples in order, the latest, and percentiles of the sorted values', () => {
    const monitor = new HealthMonitor();
    for (const [at, rtt] of [
      [1_000, 30],
      [2_000, 10],
      [3_000, 20],
    ] as const) {
      monitor.addSample(rtt, at);
    }
    const snap = monitor.snapshot(link);
    expect(snap.rttSamples).toEqual([
      [1_000, 30],
      [2_000, 10],
      [3_000, 20],
    ]);
    expect(snap.lastRttMs).toBe(20);
    expect(snap.rttP50Ms).toBe(20);
    expect(snap.rttP95Ms).toBe(30);
    expect(snap.lastContactAt).toBe(7);
  });

  it('starts empty', () => {
    const snap = new HealthMonitor().snapshot(link);
    expect(snap).toMatchObject({ rttSamples: [], lastRttMs: null, rttP50Ms: null, rttP95Ms: null });
    expect(snap.degraded).toBe(false);
    expect(snap.reconnectCount).toBe(0);
    expect(snap.history).toEqual([]);
  });

  it('forgets samples older than the window, keeping one exactly at its edge', () => {
    const monitor = new HealthMonitor();
    monitor.addSample(1, 0);
    monitor.addSample(2, 1);
    monitor.addSample(3, HEALTH_WINDOW_MS + 1);
    expect(monitor.snapshot(link).rttSamples).toEqual([
      [1, 2],
      [HEALTH_WINDOW_MS + 1, 3],
    ]);
  });

  it('keeps at most HEALTH_MAX_SAMPLES, dropping the oldest', () => {
    const monitor = new HealthMonitor();
    for (let i = 0; i <= HEALTH_MAX_SAMPLES; i++) monitor.addSample(i, 1_000 + i);
    const samples = monitor.snapshot(link).rttSamples;
    expect(samples).toHaveLength(HEALTH_MAX_SAMPLES);
    expect(samples[0]).toEqual([1_001, 1]);
  });

  it('resetSamples forgets every sample', () => {
    const monitor = new HealthMonitor();
    monitor.addSample(5, 1);
    monitor.resetSamples();
    expect(monitor.snapshot(link)).toMatchObject({ rttSamples: [], lastRttMs: null });
  });
});

describe('HealthMonitor degraded flag', () => {
  it('is raised by a p95 above the threshold, not at it', () => {
    const at = new HealthMonitor();
    at.addSample(DEGRADED_RTT_MS, 1);
    expect(at.snapshot(link).degraded).toBe(false);
    const above = new HealthMonitor();
    above.addSample(DEGRADED_RTT_MS + 1, 1);
    expect(above.snapshot(link).degraded).toBe(true);
  });

  it('is raised by an unanswered probe older than the threshold, not at it', () => {
    const monitor = new HealthMonitor();
    monitor.addSample(1, 1);
    expect(monitor.snapshot({ ...link, probeAgeMs: DEGRADED_RTT_MS }).degraded).toBe(false);
    expect(monitor.snapshot({ ...link, probeAgeMs: DEGRADED_RTT_MS + 1 }).degraded).toBe(true);
    expect(new HealthMonitor().snapshot({ ...link, probeAgeMs: DEGRADED_RTT_MS + 1 }).degraded).toBe(true);
    expect(monitor.snapshot({ ...link, probeAgeMs: 0 }).degraded).toBe(false);
  });

  it('passes the stalled flag through and states its thresholds', () => {
    const snap = new HealthMonitor().snapshot({ ...link, stalled: true });
    expect(snap.stalled).toBe(true);
    expect(snap.thresholds).toEqual({ degradedRttMs: DEGRADED_RTT_MS, stalledAfterMs: STALLED_AFTER_MS });
  });
});

describe('HealthMonitor state history', () => {
  it('counts a reconnect only for reconnecting → connected', () => {
    const monitor = new HealthMonitor();
    monitor.recordState(connected);
    monitor.recordState(connected);
    monitor.recordState(connecting);
    monitor.recordState(connected);
    expect(monitor.snapshot(link).reconnectCount).toBe(0);
    monitor.recordState(reconnecting);
    monitor.recordState(reconnecting);
    expect(monitor.snapshot(link).reconnectCount).toBe(0);
    monitor.recordState(connected);
    expect(monitor.snapshot(link).reconnectCount).toBe(1);
  });

  it('records a reason only when one is given', () => {
    const monitor = new HealthMonitor();
    monitor.recordState(connected);
    monitor.recordState(reconnecting, 'link lost');
    const [first, second] = monitor.snapshot(link).history;
    expect(Object.keys(first!).sort()).toEqual(['at', 'state']);
    expect(second).toMatchObject({ state: 'reconnecting', reason: 'link lost' });
  });

  it('keeps the newest HEALTH_HISTORY_LIMIT changes', () => {
    const monitor = new HealthMonitor();
    monitor.recordState(reconnecting);
    for (let i = 0; i < HEALTH_HISTORY_LIMIT; i++) monitor.recordState(connected);
    const history = monitor.snapshot(link).history;
    expect(history).toHaveLength(HEALTH_HISTORY_LIMIT);
    expect(history.every((change) => change.state === 'connected')).toBe(true);
  });
});

describe('HealthMonitor stalls', () => {
  it('puts a stall and its end in the history without counting a reconnect', () => {
    const monitor = new HealthMonitor();
    monitor.recordState(connected);
    monitor.recordStall(true, 4_200, 10);
    monitor.recordStall(false, 9_000, 20);
    const snap = monitor.snapshot({ ...link, stalled: false, stallReconnectAt: 99 });
    expect(snap.history.slice(1)).toEqual([
      { at: 10, state: 'stalled', reason: 'no reply for 4 s' },
      { at: 20, state: 'connected', reason: 'replies again after 9 s of silence' },
    ]);
    expect(snap.reconnectCount).toBe(0);
    // Only a stalled link has a time at which it is given up.
    expect(snap.stallReconnectAt).toBeNull();
    expect(monitor.snapshot({ ...link, stalled: true, stallReconnectAt: 99 }).stallReconnectAt).toBe(99);
  });
});
