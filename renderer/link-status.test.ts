import { describe, expect, it } from 'vitest';
import { linkStatus } from './link-status';
import { makeEnv } from './test/fake-bridge';

describe('linkStatus', () => {
  const now = 100_000;
  it('names a healthy link with its RTT', () => {
    expect(linkStatus(makeEnv(), now).label).toBe('Connection: connected, 3 ms');
  });
  it('reports degraded and stalled from health, not only the link kind', () => {
    const base = makeEnv();
    expect(
      linkStatus(makeEnv({ health: { ...base.health!, degraded: true, lastRttMs: 480 } }), now).text,
    ).toBe('degraded, 480 ms');
    const stalled = linkStatus(
      makeEnv({ health: { ...base.health!, stalled: true, lastContactAt: now - 12_000 } }),
      now,
    );
    expect(stalled.kind).toBe('stalled');
    expect(stalled.text).toBe('stalled, no reply for 12 s');
  });
  it('counts down to the next retry while reconnecting', () => {
    const env = makeEnv({ link: { kind: 'reconnecting', since: 0, attempt: 3, nextRetryAt: now + 4_200 } });
    expect(linkStatus(env, now).label).toBe('Connection: reconnecting in 5 s (attempt 3)');
  });
  it('gives the failure reason', () => {
    const env = makeEnv({ link: { kind: 'failed', since: 0, reason: 'token rejected' } });
    expect(linkStatus(env, now).text).toBe('failed: token rejected');
  });
});
