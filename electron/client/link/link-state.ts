// The reconnect state machine's states: the client's phase (named so to keep "link" for what the user sees). Each one holds the resources that exist only while the
// client is in it (the attempt callers wait on, the live connection and its probe, the backoff
// timer, the fatal error); the public ConnectionState is derived from it, never kept beside it.
import type { ConnectionState } from '../api';
import type { BackoffWait } from './backoff';
import type { ClientError } from '../client-error';
import type { ExecServerConnection } from './connection';
import type { OutageBounds } from './recovery-policy';
import type { RttProbe } from './rtt-probe';

/** The one connect or recovery in flight; every caller waits on it. Never rejects. */
export type Attempt = Promise<void>;

/** An attempt and its resolver: the states an attempt enters carry it from its first moment. */
export function newAttempt(): { attempt: Attempt; settle: () => void } {
  let settle: () => void = () => undefined;
  const attempt = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { attempt, settle };
}

/** One outage: from the loss of a link until it is resumed or given up. */
export interface Outage {
  /** 1 for the first attempt of this outage. */
  attemptNo: number;
  /** Why the link was lost, or why the last attempt failed. */
  reason: string;
  /** Until when the server holds the session and when attempts stop (recovery-policy.ts). */
  bounds: OutageBounds;
}

export interface ConnectedPhase {
  kind: 'connected';
  since: number;
  sessionId: string;
  connection: ExecServerConnection;
  probe: RttProbe;
}

export type ClientPhase =
  | { kind: 'idle' }
  /** Opening a new session. */
  | { kind: 'connecting'; since: number; attempt: Attempt }
  | ConnectedPhase
  /** Lost: backing off before the outage's next attempt. */
  | { kind: 'waiting'; since: number; attempt: Attempt; outage: Outage; backoff: BackoffWait }
  /** Lost: an attempt to resume the session is in flight. */
  | { kind: 'reconnecting'; since: number; attempt: Attempt; outage: Outage }
  /** Terminal; `expiredAt` when the session is gone (fatalError code unknownSession). */
  | { kind: 'failed'; since: number; fatalError: ClientError; expiredAt?: number }
  | { kind: 'closed'; since: number };

/** What the app sees of a state: its facts, not its resources. */
export function toConnectionState(phase: ClientPhase): ConnectionState {
  switch (phase.kind) {
    case 'idle':
      return { kind: 'idle' };
    case 'connecting':
      return { kind: 'connecting', since: phase.since };
    case 'connected':
      return { kind: 'connected', since: phase.since, sessionId: phase.sessionId };
    case 'waiting':
    case 'reconnecting':
      return {
        kind: 'reconnecting',
        since: phase.since,
        attempt: phase.outage.attemptNo,
        nextRetryAt: phase.kind === 'waiting' ? phase.backoff.retryAt : null,
        reason: phase.outage.reason,
        sessionHeldUntil: phase.outage.bounds.sessionHeldUntil,
        deadlineAt: phase.outage.bounds.deadlineAt,
      };
    case 'failed':
      return {
        kind: 'failed',
        since: phase.since,
        reason: phase.fatalError.message,
        code: phase.fatalError.code,
        ...(phase.expiredAt !== undefined ? { expiredAt: phase.expiredAt } : {}),
      };
    case 'closed':
      return { kind: 'closed', since: phase.since };
  }
}
