// The reconnect state machine's states. Each one holds the resources that exist only while the
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

/** One outage: from the loss of a link until it is resumed or given up. */
export interface Outage {
  /** 1 for the first attempt of this outage. */
  attemptNo: number;
  /** Why the link was lost, or why the last attempt failed. */
  reason: string;
  /** Until when the server holds the session and when attempts stop (recovery-policy.ts). */
  bounds: OutageBounds;
}

export interface ConnectedLink {
  kind: 'connected';
  since: number;
  sessionId: string;
  connection: ExecServerConnection;
  probe: RttProbe;
}

export type LinkState =
  | { kind: 'idle' }
  /** Opening a new session. */
  | { kind: 'connecting'; since: number; attempt: Attempt }
  | ConnectedLink
  /** Lost: backing off before the outage's next attempt. */
  | { kind: 'waiting'; since: number; attempt: Attempt; outage: Outage; backoff: BackoffWait }
  /** Lost: an attempt to resume the session is in flight. */
  | { kind: 'reconnecting'; since: number; attempt: Attempt; outage: Outage }
  /** Terminal; `expiredAt` when the session is gone (fatalError code unknownSession). */
  | { kind: 'failed'; since: number; fatalError: ClientError; expiredAt?: number }
  | { kind: 'closed'; since: number };

/** What the app sees of a state: its facts, not its resources. */
export function toConnectionState(link: LinkState): ConnectionState {
  switch (link.kind) {
    case 'idle':
      return { kind: 'idle' };
    case 'connecting':
      return { kind: 'connecting', since: link.since };
    case 'connected':
      return { kind: 'connected', since: link.since, sessionId: link.sessionId };
    case 'waiting':
    case 'reconnecting':
      return {
        kind: 'reconnecting',
        since: link.since,
        attempt: link.outage.attemptNo,
        nextRetryAt: link.kind === 'waiting' ? link.backoff.retryAt : null,
        reason: link.outage.reason,
        sessionHeldUntil: link.outage.bounds.sessionHeldUntil,
        deadlineAt: link.outage.bounds.deadlineAt,
      };
    case 'failed':
      return {
        kind: 'failed',
        since: link.since,
        reason: link.fatalError.message,
        code: link.fatalError.code,
        ...(link.expiredAt !== undefined ? { expiredAt: link.expiredAt } : {}),
      };
    case 'closed':
      return { kind: 'closed', since: link.since };
  }
}
