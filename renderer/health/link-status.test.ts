import { describe, expect, it } from 'vitest';
import { formatTimeOfDay } from '../ui/format';
import { linkStatus } from './link-status';
import { makeEnv } from '../test/fake-bridge';

describe('linkStatus', () => {
  const now = 100_000;
  it('names a healthy link with its RTT', () => {
    expect(linkStatus(makeEnv(), now).label).toBe('Connection: connected, 3 ms');
  });
  it('says every link is unknown while the page has lost contact with its host', () => {
    for (const env of [
      makeEnv(),
      makeEnv({ link: { kind: 'failed', since: 0, reason: 'token rejected' } }),
      makeEnv({ link: { kind: 'reconnecting', since: 0, attempt: 3, nextRetryAt: now + 4_200 } }),
    ]) {
      const status = linkStatus(env, now, true);
      expect(status.kind).toBe('unknown');
      expect(status.label).toBe('Connection: unknown (lost contact with Tether)');
      expect(status.detail).toBeNull();
    }
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
  it('does not count down to retries closer than a second (attempts run every ~250 ms)', () => {
    const env = makeEnv({ link: { kind: 'reconnecting', since: 0, attempt: 137, nextRetryAt: now + 240 } });
    expect(linkStatus(env, now).text).toBe('reconnecting (attempt 137)');
  });
  it('gives the failure reason', () => {
    const env = makeEnv({ link: { kind: 'failed', since: 0, reason: 'token rejected' } });
    expect(linkStatus(env, now).text).toBe('failed: token rejected');
    expect(linkStatus(env, now).detail).toBe('token rejected');
  });
  it('says a failed first connect is retried by itself, counting down to the retry', () => {
    const link = { kind: 'failed', since: 0, reason: 'connection refused', retryAt: now + 4_200 } as const;
    expect(linkStatus(makeEnv({ link }), now).text).toBe('failed: connection refused · retrying in 5 s');
    expect(linkStatus(makeEnv({ link: { ...link, retryAt: now + 200 } }), now).text).toBe(
      'failed: connection refused · retrying',
    );
  });
  it('keeps a long failure to its first sentence on one line, and the whole of it as the detail', () => {
    const reason =
      'The server no longer holds session 5b0e6f1c-0a57-4c59-9a39-0e0f3c9d1b11. Its processes are gone.\n' +
      'Reconnect to start a new session.\nDetails: -32010';
    const status = linkStatus(makeEnv({ link: { kind: 'failed', since: 0, reason } }), now);
    expect(status.text).toBe('failed: The server no longer holds session 5b0e6f1c-0a57-4c59-9a39-…');
    expect(status.text).not.toContain('\n');
    expect(status.detail).toBe(reason);
  });
  it('says until when the server holds the session while reconnecting', () => {
    const heldUntil = new Date(2026, 0, 5, 14, 5, 30).getTime();
    const env = makeEnv({
      link: { kind: 'reconnecting', since: 0, attempt: 9, nextRetryAt: null, sessionHeldUntil: heldUntil },
    });
    expect(formatTimeOfDay(heldUntil)).toBe('14:05');
    expect(linkStatus(env, now).text).toBe('reconnecting (attempt 9) · session held until 14:05');
  });
  it('says plainly how long codex keeps a session when the server advertises no lifetime', () => {
    const env = makeEnv({ link: { kind: 'reconnecting', since: 0, attempt: 2, sessionHeldUntil: null } });
    expect(linkStatus(env, now).text).toBe('reconnecting (attempt 2) · codex keeps a detached session ~80 s');
  });
  it('names an expired session and when it expired, apart from other failures', () => {
    const expiredAt = new Date(2026, 0, 5, 9, 7).getTime();
    const env = makeEnv({
      link: { kind: 'failed', since: expiredAt + 60_000, code: 'unknownSession', expiredAt, reason: 'x' },
    });
    const status = linkStatus(env, now);
    expect(status.kind).toBe('expired');
    expect(status.label).toBe('Connection: session expired at 09:07');
  });
});
