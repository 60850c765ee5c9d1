// How long the client keeps trying to resume a lost session: as long as the server may still hold
// it. A server that advertises its detached-session lifetime (Tether) bounds an outage by it plus a
// margin; one that does not (codex) is tried until it says the session is gone; a caller may add a
// give-up of its own. The reconnect loop and the connection state both read the bounds from here.
import { SESSION_LIFETIME_CAPABILITY, type EnvironmentInfo } from '../../../shared/protocol';
import { ClientError } from '../client-error';
import { SESSION_HOLD_MARGIN_MS } from '../constants';

export interface OutageBounds {
  /** Epoch ms until which the server holds the session (its lifetime after our last contact); null if it does not say. */
  sessionHeldUntil: number | null;
  /** Epoch ms after which no further attempt is made; null: until the server says the session is gone. */
  deadlineAt: number | null;
  /** What the deadline is: the session's lifetime running out, or the caller's give-up. */
  endsBy: 'sessionLifetime' | 'giveUp' | null;
}

/** The detached-session lifetime a server advertises (Tether's `tetherSessionTtlMs`), or null. */
export function sessionLifetimeMs(info: EnvironmentInfo | null): number | null {
  const value = info?.capabilities?.[SESSION_LIFETIME_CAPABILITY];
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

/** The bounds of an outage that began at `lostAt`, the server last heard from at `lastContactAt`. */
export function outageBounds(outage: {
  lostAt: number;
  lastContactAt: number;
  info: EnvironmentInfo | null;
  giveUpAfterMs?: number;
  /** Tried beyond the held-until time (default SESSION_HOLD_MARGIN_MS). */
  holdMarginMs?: number;
}): OutageBounds {
  const lifetime = sessionLifetimeMs(outage.info);
  const sessionHeldUntil = lifetime === null ? null : outage.lastContactAt + lifetime;
  const margin = outage.holdMarginMs ?? SESSION_HOLD_MARGIN_MS;
  const expiresAt = sessionHeldUntil === null ? null : sessionHeldUntil + margin;
  const giveUpAt = outage.giveUpAfterMs === undefined ? null : outage.lostAt + outage.giveUpAfterMs;
  if (giveUpAt !== null && (expiresAt === null || giveUpAt < expiresAt)) {
    return { sessionHeldUntil, deadlineAt: giveUpAt, endsBy: 'giveUp' };
  }
  return { sessionHeldUntil, deadlineAt: expiresAt, endsBy: expiresAt === null ? null : 'sessionLifetime' };
}

/** The error that ends an outage whose deadline passed without a resume. */
export function deadlineError(
  bounds: OutageBounds,
  lastError: ClientError,
  giveUpAfterMs?: number,
): ClientError {
  if (bounds.endsBy === 'giveUp') {
    return new ClientError(
      'recoveryDeadline',
      `Could not reconnect within ${Math.round((giveUpAfterMs ?? 0) / 1000)} s (last error: ${lastError.message}). ` +
        'The session may still be held by the server.',
    );
  }
  return new ClientError(
    'unknownSession',
    'The link stayed down longer than the server keeps a detached session, so the session has expired and ' +
      `its processes have ended (last error: ${lastError.message}). Start a new session.`,
  );
}

/** When a session that is gone ended: its held-until time if known and past, else now (when we learnt it). */
export function expiredAt(bounds: OutageBounds | null, now: number): number {
  const heldUntil = bounds?.sessionHeldUntil ?? null;
  return heldUntil !== null && heldUntil < now ? heldUntil : now;
}
