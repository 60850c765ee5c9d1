// The reconnect policy's bounds: a server that advertises its session lifetime is tried until that
// lifetime after the last contact (plus the margin), one that does not is tried without end, and a
// caller's give-up cuts either short. An expired session is dated by its held-until time.
import { describe, expect, it } from 'vitest';
import type { EnvironmentInfo } from '../../../../shared/protocol';
import { ClientError } from '../../../../electron/client/client-error';
import { SESSION_HOLD_MARGIN_MS } from '../../../../electron/client/constants';
import {
  deadlineError,
  expiredAt,
  outageBounds,
  sessionLifetimeMs,
} from '../../../../electron/client/link/recovery-policy';

const HOUR = 3_600_000;
const tether = (ttl: unknown): EnvironmentInfo => ({ capabilities: { tetherSessionTtlMs: ttl } });
const codex: EnvironmentInfo = { capabilities: {} };
const lost = new ClientError('transport', 'connect ECONNREFUSED');

describe('the recovery policy', () => {
  it('reads the advertised lifetime, and only a positive number counts', () => {
    expect(sessionLifetimeMs(tether(3 * HOUR))).toBe(3 * HOUR);
    for (const bad of [true, '10800000', 0, -5, Number.NaN])
      expect(sessionLifetimeMs(tether(bad))).toBeNull();
    expect(sessionLifetimeMs(codex)).toBeNull();
    expect(sessionLifetimeMs(null)).toBeNull();
  });

  it('holds a Tether session for its lifetime after the last contact, and tries a margin longer', () => {
    const bounds = outageBounds({ lostAt: 5_000, lastContactAt: 1_000, info: tether(3 * HOUR) });
    expect(bounds).toEqual({
      sessionHeldUntil: 1_000 + 3 * HOUR,
      deadlineAt: 1_000 + 3 * HOUR + SESSION_HOLD_MARGIN_MS,
      endsBy: 'sessionLifetime',
    });
  });

  it('tries a server that advertises no lifetime (codex) until it says the session is gone', () => {
    expect(outageBounds({ lostAt: 5_000, lastContactAt: 1_000, info: codex })).toEqual({
      sessionHeldUntil: null,
      deadlineAt: null,
      endsBy: null,
    });
  });

  it("lets a caller's give-up end an outage earlier, never later", () => {
    const early = outageBounds({
      lostAt: 5_000,
      lastContactAt: 1_000,
      info: tether(HOUR),
      giveUpAfterMs: 60_000,
    });
    expect(early).toMatchObject({ sessionHeldUntil: 1_000 + HOUR, deadlineAt: 65_000, endsBy: 'giveUp' });
    const late = outageBounds({
      lostAt: 5_000,
      lastContactAt: 1_000,
      info: tether(1_000),
      giveUpAfterMs: HOUR,
    });
    expect(late).toMatchObject({ deadlineAt: 2_000 + SESSION_HOLD_MARGIN_MS, endsBy: 'sessionLifetime' });
    expect(
      outageBounds({ lostAt: 5_000, lastContactAt: 1_000, info: codex, giveUpAfterMs: 9 }),
    ).toMatchObject({
      deadlineAt: 5_009,
      endsBy: 'giveUp',
    });
  });

  it('ends a lifetime outage as an expired session, a give-up as a recovery deadline', () => {
    const lifetime = outageBounds({ lostAt: 0, lastContactAt: 0, info: tether(HOUR) });
    expect(deadlineError(lifetime, lost).code).toBe('unknownSession');
    expect(deadlineError(lifetime, lost).message).toMatch(/expired.*ECONNREFUSED/);
    const giveUp = outageBounds({ lostAt: 0, lastContactAt: 0, info: codex, giveUpAfterMs: 30_000 });
    const error = deadlineError(giveUp, lost, 30_000);
    expect(error.code).toBe('recoveryDeadline');
    expect(error.message).toMatch(/within 30 s/);
  });

  it('dates an expiry by the held-until time once it has passed, else by now', () => {
    const bounds = outageBounds({ lostAt: 0, lastContactAt: 1_000, info: tether(HOUR) });
    expect(expiredAt(bounds, 1_000 + 2 * HOUR)).toBe(1_000 + HOUR);
    expect(expiredAt(bounds, 2_000), 'a server that expired it early (e.g. restarted)').toBe(2_000);
    expect(expiredAt(null, 7)).toBe(7);
  });
});
