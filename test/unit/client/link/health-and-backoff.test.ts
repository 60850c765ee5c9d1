import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BackoffWait, backoffDelay, DEFAULT_BACKOFF } from '../../../../electron/client/link/backoff';
import { BACKOFF_STEADY_MS, DEGRADED_RTT_MS } from '../../../../electron/client/constants';
import { HealthMonitor, percentile } from '../../../../electron/client/link/health-monitor';
import { fromPathUri, toPathUri } from '../../../../electron/client/files/path-uri';

describe('backoff', () => {
  it('retries at once, ramps 0.25, 0.5, 1, 2, 4 s, then tries every 5 s ±20 % for good', () => {
    const mid = (): number => 0.5;
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffDelay(n, DEFAULT_BACKOFF, mid));
    expect(delays).toEqual([0, 250, 500, 1_000, 2_000, 4_000, 5_000, 5_000]);
    expect(backoffDelay(10_000, DEFAULT_BACKOFF, mid), 'no attempt count ends the steady interval').toBe(
      BACKOFF_STEADY_MS,
    );
    expect(backoffDelay(20, DEFAULT_BACKOFF, () => 1)).toBe(BACKOFF_STEADY_MS * 1.2);
    expect(backoffDelay(20, DEFAULT_BACKOFF, () => 0)).toBe(BACKOFF_STEADY_MS * 0.8);
    expect(
      backoffDelay(2, DEFAULT_BACKOFF, () => 0),
      'the ramp is jittered too',
    ).toBe(200);
  });

  it('follows an injected schedule', () => {
    const schedule = { rampMs: [10], steadyMs: 3_600_000, jitter: 0 };
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, schedule))).toEqual([0, 10, 3_600_000, 3_600_000]);
  });

  it('ends a wait early when woken (retry now) or when the client is closed', async () => {
    const never = new AbortController();
    const woken = new BackoffWait(3_600_000, never.signal);
    woken.wake();
    await woken.done;
    const closing = new AbortController();
    const aborted = new BackoffWait(3_600_000, closing.signal);
    closing.abort();
    await aborted.done;
    expect(woken.retryAt).toBeGreaterThan(Date.now());
  });

  it("leaves no listener on the client's lifetime signal once a wait is over", async () => {
    // The signal lives as long as the client; a listener left per wait would pile up over an outage.
    const lifetime = new AbortController();
    const timedOut = new BackoffWait(1, lifetime.signal);
    await timedOut.done;
    const woken = new BackoffWait(3_600_000, lifetime.signal);
    woken.wake();
    await woken.done;
    expect(getEventListeners(lifetime.signal, 'abort')).toHaveLength(0);
  });
});

describe('health', () => {
  it('computes nearest-rank percentiles', () => {
    expect(percentile([], 0.5)).toBeNull();
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95)).toBe(10);
  });

  it('flags degraded links and counts reconnects', () => {
    const monitor = new HealthMonitor();
    for (let i = 0; i < 19; i++) monitor.addSample(1);
    let snap = monitor.snapshot({ lastContactAt: 1, stalled: false, probeAgeMs: null });
    expect(snap.degraded).toBe(false);
    monitor.addSample(DEGRADED_RTT_MS + 1);
    monitor.addSample(DEGRADED_RTT_MS + 1);
    snap = monitor.snapshot({ lastContactAt: 1, stalled: false, probeAgeMs: null });
    expect(snap.degraded).toBe(true);
    expect(monitor.snapshot({ lastContactAt: 1, stalled: true, probeAgeMs: null }).stalled).toBe(true);
    monitor.recordState({ kind: 'connected', since: 1, sessionId: 's' });
    monitor.recordState(
      {
        kind: 'reconnecting',
        since: 2,
        attempt: 1,
        nextRetryAt: null,
        reason: 'x',
        sessionHeldUntil: null,
        deadlineAt: null,
      },
      'x',
    );
    monitor.recordState({ kind: 'connected', since: 3, sessionId: 's' });
    snap = monitor.snapshot({ lastContactAt: 1, stalled: false, probeAgeMs: null });
    expect(snap.reconnectCount).toBe(1);
    expect(snap.history.map((h) => h.state)).toEqual(['connected', 'reconnecting', 'connected']);
    expect(snap.history[1]?.reason).toBe('x');
  });
});

describe('path URIs', () => {
  it('round-trips absolute paths with awkward characters', () => {
    for (const path of ['/tmp/a b', '/x/#hash?q', '/ü/%20']) expect(fromPathUri(toPathUri(path))).toBe(path);
    expect(toPathUri('/tmp/a b')).toBe('file:///tmp/a%20b');
    expect(() => toPathUri('relative')).toThrow(/absolute/);
  });
});
