import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BackoffWait, backoffDelay } from '../../../electron/client/backoff';
import { BACKOFF_MAX_MS, DEGRADED_RTT_MS } from '../../../electron/client/constants';
import { HealthMonitor, percentile } from '../../../electron/client/health-monitor';
import { fromPathUri, toPathUri } from '../../../electron/client/path-uri';

describe('backoff', () => {
  it('retries at once, then grows to the cap', () => {
    const mid = (): number => 0.5;
    expect(backoffDelay(1, mid)).toBe(0);
    expect(backoffDelay(2, mid)).toBe(25);
    expect(backoffDelay(3, mid)).toBe(50);
    expect(backoffDelay(20, mid)).toBe(BACKOFF_MAX_MS);
    expect(backoffDelay(20, () => 1)).toBeGreaterThan(BACKOFF_MAX_MS);
    expect(backoffDelay(20, () => 0)).toBeLessThan(BACKOFF_MAX_MS);
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
      { kind: 'reconnecting', since: 2, attempt: 1, nextRetryAt: null, reason: 'x', deadlineAt: 9 },
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
