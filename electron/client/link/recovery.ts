// The recovery from an outage: attempts to resume the session, one at a time with backoff, until it
// is back or lost for good (an error no retry gets past, or the outage's deadline). SessionLink
// (session-link.ts) starts one after each loss and holds the phases it moves through.
import { ErrorCode, type EnvironmentInfo } from '../../../shared/protocol';
import { BackoffWait, backoffDelay, DEFAULT_BACKOFF, type BackoffSchedule } from './backoff';
import { isTransientCode, toClientError, type ClientError } from '../client-error';
import type { Attempt, ClientPhase, Outage } from './link-state';
import { deadlineError, outageBounds, type OutageBounds } from './recovery-policy';

/** The client options a recovery reads (SessionLinkOptions adds the rest). */
export interface RecoveryOptions {
  /**
   * Give up an outage after this long even though the server may still hold the session. Without
   * it the client tries as long as the server may hold the session (recovery-policy.ts).
   */
  recoveryDeadlineMs?: number;
  /** Waits between the attempts of an outage (default: DEFAULT_BACKOFF). */
  backoff?: BackoffSchedule;
  /** How long past the server's advertised session lifetime to keep trying (default 1 min). */
  sessionHoldMarginMs?: number;
}

/** What a recovery needs of the session link it recovers. */
export interface RecoveringLink {
  readonly options: RecoveryOptions;
  /** Aborted by the link's close(): ends a backoff wait, and the recovery with it. */
  readonly signal: AbortSignal;
  enter(link: ClientPhase, reason?: string): void;
  /** One attempt: resumes the session on a new connection, or throws why not. */
  resume(deadlineAt: number | null): Promise<void>;
  /** The session is back, after `attemptNo` attempts. */
  resumed(attemptNo: number): void;
  fail(fatalError: ClientError, bounds: OutageBounds): void;
}

/** Errors after which another reconnect attempt can still succeed. */
export function isRetryable(error: ClientError): boolean {
  if (isTransientCode(error.code)) return true;
  return error.code === 'rpc' && error.rpc?.code === ErrorCode.alreadyAttached;
}

/**
 * An outage that begins at attempt `attemptNo` for `reason`: lost at `lostAt`, the server last
 * heard from at `lastContactAt`; `info` is what the server said of itself (its session lifetime).
 */
export function newOutage(
  options: RecoveryOptions,
  info: EnvironmentInfo | null,
  attemptNo: number,
  reason: string,
  lostAt: number,
  lastContactAt: number,
): Outage {
  return {
    attemptNo,
    reason,
    bounds: outageBounds({
      lostAt,
      lastContactAt,
      info,
      giveUpAfterMs: options.recoveryDeadlineMs,
      holdMarginMs: options.sessionHoldMarginMs,
    }),
  };
}

/** Attempts to resume the session, one at a time with backoff, until it is back or lost for good. */
export async function recover(link: RecoveringLink, first: Outage, attempt: Attempt): Promise<void> {
  for (let outage = first; ;) {
    try {
      await waitForTurn(link, outage, attempt);
      link.signal.throwIfAborted();
      await link.resume(outage.bounds.deadlineAt);
      link.resumed(outage.attemptNo);
      return;
    } catch (error) {
      if (link.signal.aborted) return;
      const err = toClientError(error);
      if (!isRetryable(err)) {
        link.fail(err, outage.bounds);
        return;
      }
      const { deadlineAt } = outage.bounds;
      if (deadlineAt !== null && Date.now() >= deadlineAt) {
        link.fail(deadlineError(outage.bounds, err, link.options.recoveryDeadlineMs), outage.bounds);
        return;
      }
      outage = { ...outage, attemptNo: outage.attemptNo + 1, reason: err.message };
    }
  }
}

/** Enters the outage's next attempt, after its backoff wait if it has one. */
async function waitForTurn(link: RecoveringLink, outage: Outage, attempt: Attempt): Promise<void> {
  const { deadlineAt } = outage.bounds;
  const delay = backoffDelay(outage.attemptNo, link.options.backoff ?? DEFAULT_BACKOFF);
  const wait = deadlineAt === null ? delay : Math.min(delay, Math.max(0, deadlineAt - Date.now()));
  const since = Date.now();
  if (wait > 0) {
    const backoff = new BackoffWait(wait, link.signal);
    link.enter({ kind: 'waiting', since, attempt, outage, backoff }, outage.reason);
    await backoff.done;
    link.signal.throwIfAborted();
    link.enter({ kind: 'reconnecting', since, attempt, outage });
  } else {
    link.enter({ kind: 'reconnecting', since, attempt, outage }, outage.reason);
  }
}
