// The session link: the reconnect state machine's transitions, beside its states (link-state.ts).
// It opens a new session or resumes one, installs each connection, and on a loss backs off and
// resumes until the session is back or lost for good; `ready()` is where every call waits for a
// usable connection. RemoteExecServerClient (remote-client.ts) is the facade over it.
import { ErrorCode, Method, Notification, type EnvironmentInfo } from '../../../shared/protocol';
import type { TransportSpec } from '../api';
import { BackoffWait, backoffDelay, DEFAULT_BACKOFF, type BackoffSchedule } from './backoff';
import { ClientError, isTransientCode, toClientError } from '../client-error';
import { ExecServerConnection } from './connection';
import {
  CLIENT_NAME,
  CONNECT_TIMEOUT_MS,
  INITIALIZE_TIMEOUT_MS,
  STALL_RECONNECT_AFTER_MS,
} from '../constants';
import type { Attempt, ConnectedPhase, ClientPhase, Outage } from './link-state';
import type { ProcessSession } from '../processes/process-session';
import { RttProbe, type RttProbeEvents } from './rtt-probe';
import { deadlineError, expiredAt, outageBounds, type OutageBounds } from './recovery-policy';
import type { ArtifactLocations } from '../remote-host/local-artifacts';
import type { SshHooks } from '../transports/ssh/ssh-hooks';
import { transportOpener, whyLinkCannotResume } from '../transports/transport';
import type { TransportOpener } from '../transports/transport-types';

/** The client options the link itself reads (RemoteClientOptions adds the rest). */
export interface SessionLinkOptions {
  transport: TransportSpec;
  clientName?: string;
  /**
   * Give up an outage after this long even though the server may still hold the session. Without
   * it the client tries as long as the server may hold the session (recovery-policy.ts).
   */
  recoveryDeadlineMs?: number;
  /** Waits between the attempts of an outage (default: DEFAULT_BACKOFF). */
  backoff?: BackoffSchedule;
  /** How long past the server's advertised session lifetime to keep trying (default 1 min). */
  sessionHoldMarginMs?: number;
  /**
   * Drop a stalled link without pings and resume on a new one after this long without a reply
   * (default STALL_RECONNECT_AFTER_MS). Links that cannot resume (stdio) are never dropped.
   */
  stallReconnectAfterMs?: number;
  connectTimeoutMs?: number;
  initializeTimeoutMs?: number;
  /**
   * Ask for binary data frames (Tether's extension; WebSocket links only) so output and file
   * blocks travel without base64. Default true; codex's server ignores the request.
   */
  binaryFrames?: boolean;
  /** SSH transports: prompts (host key, password) and connect stages; without them prompts fail. */
  ssh?: SshHooks;
  /** SSH transports: where the bundle and runtimes to install are (defaults: this build's). */
  sshArtifacts?: ArtifactLocations;
  /**
   * Resume this session at the first connect instead of opening a new one (an app restarted within
   * the session's lifetime). If the server no longer has it, the client fails with 'unknownSession'.
   */
  resumeSessionId?: string;
}

/** What the link tells its client, and asks of it. */
export interface SessionLinkHooks extends RttProbeEvents {
  /** Every followed process: routed on each new connection, resynced after a resume, failed with the link. */
  processes(): Iterable<ProcessSession>;
  /** A transition happened: the link is now in `link` (`reason` for the health history). */
  entered(link: ClientPhase, reason?: string): void;
  /** A new connection was installed: its link may take another path, so RTT starts from scratch. */
  installed(): void;
  /** The connected link stalled, or answers again after `silentMs` of silence. */
  stallChanged(stalled: boolean, silentMs: number): void;
  log(message: string): void;
}

/** Errors after which another reconnect attempt can still succeed. */
function isRetryable(error: ClientError): boolean {
  if (isTransientCode(error.code)) return true;
  return error.code === 'rpc' && error.rpc?.code === ErrorCode.alreadyAttached;
}

/** An attempt and its resolver: the states an attempt enters carry it from its first moment. */
function newAttempt(): { attempt: Attempt; settle: () => void } {
  let settle: () => void = () => undefined;
  const attempt = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { attempt, settle };
}

const clientClosed = (): ClientError => new ClientError('closed', 'The client was closed.');

export class SessionLink {
  private link: ClientPhase = { kind: 'idle' };
  private info: EnvironmentInfo | null = null;
  /** The logical session: kept through outages, dropped only when a failed client starts over. */
  private sessionId: string | null;
  /** Aborted by close(): ends a backoff wait and keeps a late handshake from installing. */
  private readonly lifetime = new AbortController();
  private lastContact: number | null = null;
  /** Opens each connection's transport; holds what outlives one link (an SSH master). */
  private readonly opener: TransportOpener;

  constructor(
    private readonly options: SessionLinkOptions,
    private readonly hooks: SessionLinkHooks,
  ) {
    this.opener = transportOpener(options.transport, {
      ssh: options.ssh,
      sshArtifacts: options.sshArtifacts,
    });
    this.sessionId = options.resumeSessionId ?? null;
  }

  get state(): ClientPhase {
    return this.link;
  }

  get environmentInfo(): EnvironmentInfo | null {
    return this.info;
  }

  get currentSessionId(): string | null {
    return this.sessionId;
  }

  /** Last contact of the previous connection, shown while there is none. */
  get lastContactAt(): number | null {
    return this.lastContact;
  }

  get connection(): ExecServerConnection | null {
    return this.link.kind === 'connected' ? this.link.connection : null;
  }

  reconnectNow(): void {
    if (this.lifetime.signal.aborted) return;
    const link = this.link;
    if (link.kind === 'waiting') {
      link.backoff.wake();
    } else if (link.kind === 'failed') {
      // A failed session cannot be resumed: start over with a fresh session.
      this.sessionId = null;
      this.ready().catch(() => undefined);
    } else if (link.kind === 'idle') {
      this.ready().catch(() => undefined);
    } else if (link.kind === 'connected' && link.connection.stalled && this.canReplaceLink) {
      // Waiting out a stall helps no one who asked: drop the link, and the loss resumes the session.
      const silentS = Math.round((Date.now() - link.connection.lastInboundAt) / 1000);
      link.connection.close(
        new ClientError(
          'disconnected',
          `Reconnect asked while the link was stalled (no reply for ${silentS} s); it is given up for a new one.`,
        ),
      );
    }
  }

  /** Whether a new link can take over the session (not a stdio server's: its session dies with it). */
  private get canReplaceLink(): boolean {
    return whyLinkCannotResume(this.options.transport) === null;
  }

  /** Ends the link for good: the connection closes, and every followed process fails. */
  close(): void {
    if (this.lifetime.signal.aborted) return;
    this.lifetime.abort(clientClosed());
    this.releaseLink(clientClosed());
    this.opener.dispose();
    for (const followed of [...this.hooks.processes()]) followed.fail('The client was closed.');
    this.enter({ kind: 'closed', since: Date.now() });
  }

  /** Resolves with a usable connection, connecting or waiting for recovery as needed. */
  async ready(): Promise<ExecServerConnection> {
    // Once this call has seen an attempt end, a failure is its answer: no attempt per caller.
    let sawAttempt = false;
    for (;;) {
      // Closed, or closing: while close() fails the processes, the link is not `closed` yet.
      if (this.lifetime.signal.aborted) throw clientClosed();
      const link = this.link;
      switch (link.kind) {
        case 'connected':
          if (!link.connection.closed) return link.connection;
          // The connection ended without its loss being handled yet: recover, never start afresh.
          this.handleLoss(
            link,
            link.connection.closedError ?? new ClientError('disconnected', 'The connection was lost.'),
          );
          continue;
        case 'connecting':
        case 'waiting':
        case 'reconnecting':
          await link.attempt;
          sawAttempt = true;
          continue;
        case 'failed':
          // Without a session there is nothing to lose, so a new call may simply try again.
          if (this.sessionId !== null || sawAttempt) throw link.fatalError;
          break;
        case 'idle':
          break;
      }
      sawAttempt = true;
      this.connectFresh();
    }
  }

  /**
   * Starts the first attempt: it opens a new session, or resumes the one given at construction
   * (`resumeSessionId`). A resume that fails for a reason that may pass (the server is not up yet,
   * the old link still holds the session) keeps trying as after a loss.
   */
  private connectFresh(): void {
    const { attempt, settle } = newAttempt();
    const resumeSessionId = this.sessionId;
    this.enter({ kind: 'connecting', since: Date.now(), attempt });
    // The deadline starts once the transport is prepared: an SSH password takes the user's time.
    this.opener
      .prepare(resumeSessionId !== null)
      .then(() => this.handshake(resumeSessionId, Date.now() + CONNECT_TIMEOUT_MS * 2))
      .catch(async (error: unknown) => {
        if (this.lifetime.signal.aborted) return;
        const err = toClientError(error);
        if (resumeSessionId === null || !isRetryable(err)) {
          this.fail(err);
          return;
        }
        // Attempt 1 was this one: the recovery starts at attempt 2, after its backoff. The server's
        // lifetime is not known yet, so the outage lasts until it says the session is gone.
        const lostAt = Date.now();
        const outage: Outage = {
          attemptNo: 2,
          reason: err.message,
          bounds: outageBounds({
            lostAt,
            lastContactAt: lostAt,
            info: this.info,
            giveUpAfterMs: this.options.recoveryDeadlineMs,
            holdMarginMs: this.options.sessionHoldMarginMs,
          }),
        };
        await this.recover(outage, attempt);
      })
      .finally(settle);
  }

  /**
   * Opens a transport, sends initialize (+ initialized), learns the environment and installs the
   * connection. On any failure, the abort included, the connection is closed and the error thrown.
   */
  private async handshake(resumeSessionId: string | null, deadlineAt: number | null): Promise<void> {
    this.lifetime.signal.throwIfAborted();
    const remaining = (limit: number): number =>
      deadlineAt === null ? limit : Math.max(1_000, Math.min(limit, deadlineAt - Date.now()));
    let connection: ExecServerConnection | null = null;
    connection = await ExecServerConnection.open(
      this.opener,
      {
        onClose: (error) => {
          const link = this.link;
          if (link.kind === 'connected' && link.connection === connection) this.handleLoss(link, error);
        },
        onProtocolError: (message) => this.log(message),
        onStallChange: (stalled, silentMs) => {
          const link = this.link;
          if (link.kind === 'connected' && link.connection === connection) {
            this.hooks.stallChanged(stalled, silentMs);
          }
        },
      },
      remaining(this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS),
      resumeSessionId !== null,
      this.canReplaceLink ? (this.options.stallReconnectAfterMs ?? STALL_RECONNECT_AFTER_MS) : null,
    );
    for (const followed of this.hooks.processes()) connection.route(followed.processId, followed.accept);
    try {
      const askBinaryFrames = (this.options.binaryFrames ?? true) && connection.canCarryBinaryFrames;
      const result = await connection.call(
        Method.initialize,
        {
          clientName: this.options.clientName ?? CLIENT_NAME,
          resumeSessionId,
          ...(askBinaryFrames ? { tetherBinaryFrames: true } : {}),
        },
        { timeoutMs: remaining(this.options.initializeTimeoutMs ?? INITIALIZE_TIMEOUT_MS) },
      );
      if (resumeSessionId !== null && result.sessionId !== resumeSessionId) {
        throw new ClientError(
          'protocol',
          `The server resumed a different session (${result.sessionId}) than ours (${resumeSessionId}).`,
        );
      }
      connection.notify(Notification.initialized, {});
      // Codex's client asks environment/info only if initialize did not carry it.
      const info = result.environmentInfo ?? (await connection.call(Method.environmentInfo, undefined));
      if (connection.closed) {
        throw new ClientError('disconnected', 'The connection dropped right after the handshake.');
      }
      this.lifetime.signal.throwIfAborted();
      this.install(connection, result.sessionId, info);
    } catch (error) {
      const err = toClientError(error);
      connection.close(err);
      if (err.code === 'timeout' && connection.lastProtocolError) {
        throw new ClientError('protocol', `${err.message} ${connection.lastProtocolError}`);
      }
      throw err;
    }
  }

  private install(connection: ExecServerConnection, sessionId: string, info: EnvironmentInfo): void {
    const probe = new RttProbe(connection, this.hooks);
    this.sessionId = sessionId;
    this.info = info;
    this.enter({ kind: 'connected', since: Date.now(), sessionId, connection, probe });
    this.hooks.installed();
    probe.start();
  }

  private handleLoss(link: ConnectedPhase, error: ClientError): void {
    if (this.lifetime.signal.aborted) return;
    this.lastContact = link.connection.lastInboundAt;
    link.probe.dispose();
    // A link lost while stalled may have ridden on something stuck too (an SSH master on a dead route).
    if (link.connection.stalled) this.opener.linkStalled?.();
    const cannotResume = whyLinkCannotResume(this.options.transport);
    if (cannotResume !== null) {
      this.fail(new ClientError('transport', `${error.message} ${cannotResume}`));
      return;
    }
    this.log(`Connection lost: ${error.message} Reconnecting…`);
    const { attempt, settle } = newAttempt();
    const outage: Outage = {
      attemptNo: 1,
      reason: error.message,
      bounds: outageBounds({
        lostAt: Date.now(),
        lastContactAt: link.connection.lastInboundAt,
        info: this.info,
        giveUpAfterMs: this.options.recoveryDeadlineMs,
        holdMarginMs: this.options.sessionHoldMarginMs,
      }),
    };
    this.recover(outage, attempt).finally(settle);
  }

  /** Attempts to resume the session, one at a time with backoff, until it is back or lost for good. */
  private async recover(first: Outage, attempt: Attempt): Promise<void> {
    for (let outage = first; ;) {
      try {
        await this.waitForTurn(outage, attempt);
        this.lifetime.signal.throwIfAborted();
        await this.opener.prepare(true);
        await this.handshake(this.sessionId, outage.bounds.deadlineAt);
        this.log(`Reconnected after ${outage.attemptNo} attempt(s); session ${this.sessionId} resumed.`);
        for (const followed of [...this.hooks.processes()]) followed.resync();
        return;
      } catch (error) {
        if (this.lifetime.signal.aborted) return;
        const err = toClientError(error);
        if (!isRetryable(err)) {
          this.fail(err, outage.bounds);
          return;
        }
        const { deadlineAt } = outage.bounds;
        if (deadlineAt !== null && Date.now() >= deadlineAt) {
          this.fail(deadlineError(outage.bounds, err, this.options.recoveryDeadlineMs), outage.bounds);
          return;
        }
        outage = { ...outage, attemptNo: outage.attemptNo + 1, reason: err.message };
      }
    }
  }

  /** Enters the outage's next attempt, after its backoff wait if it has one. */
  private async waitForTurn(outage: Outage, attempt: Attempt): Promise<void> {
    const { deadlineAt } = outage.bounds;
    const delay = backoffDelay(outage.attemptNo, this.options.backoff ?? DEFAULT_BACKOFF);
    const wait = deadlineAt === null ? delay : Math.min(delay, Math.max(0, deadlineAt - Date.now()));
    const since = Date.now();
    if (wait > 0) {
      const backoff = new BackoffWait(wait, this.lifetime.signal);
      this.enter({ kind: 'waiting', since, attempt, outage, backoff }, outage.reason);
      await backoff.done;
      this.lifetime.signal.throwIfAborted();
      this.enter({ kind: 'reconnecting', since, attempt, outage });
    } else {
      this.enter({ kind: 'reconnecting', since, attempt, outage }, outage.reason);
    }
  }

  /** Ends what only a connected link has: its probe, and its connection if still open. */
  private releaseLink(error: ClientError): void {
    const link = this.link;
    if (link.kind !== 'connected') return;
    link.probe.dispose();
    link.connection.close(error);
  }

  /** Ends the session's life in this client; `bounds` when it ends an outage (to date an expiry). */
  private fail(fatalError: ClientError, bounds: OutageBounds | null = null): void {
    this.releaseLink(fatalError);
    const since = Date.now();
    const expired = fatalError.code === 'unknownSession' ? { expiredAt: expiredAt(bounds, since) } : {};
    this.enter({ kind: 'failed', since, fatalError, ...expired }, fatalError.message);
    for (const followed of [...this.hooks.processes()]) {
      followed.fail(`The connection to the environment failed: ${fatalError.message}`);
    }
  }

  private enter(link: ClientPhase, reason?: string): void {
    this.link = link;
    this.hooks.entered(link, reason);
  }

  private log(message: string): void {
    this.hooks.log(message);
  }
}
