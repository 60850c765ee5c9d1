// The session link: the reconnect state machine's transitions, beside its states (link-state.ts).
// It opens a new session or resumes one, installs each connection, and on a loss backs off and
// resumes until the session is back or lost for good; `ready()` is where every call waits for a
// usable connection. RemoteExecServerClient (remote-client.ts) is the facade over it. The steps of
// a handshake are in handshake.ts, the attempts of a recovery in recovery.ts.
import type { EnvironmentInfo } from '../../../shared/protocol';
import type { TransportSpec } from '../api';
import { ClientError, toClientError } from '../client-error';
import type { ExecServerConnection } from './connection';
import { CONNECT_TIMEOUT_MS } from '../constants';
import { handshake, type HandshakeOptions } from './handshake';
import { newAttempt, type Attempt, type ConnectedPhase, type ClientPhase, type Outage } from './link-state';
import type { ProcessSession } from '../processes/process-session';
import { isRetryable, newOutage, recover, type RecoveryOptions } from './recovery';
import { RttProbe, type RttProbeEvents } from './rtt-probe';
import { expiredAt, type OutageBounds } from './recovery-policy';
import type { ArtifactLocations } from '../remote-host/local-artifacts';
import type { SshHooks } from '../transports/ssh/ssh-hooks';
import { transportOpener, whyLinkCannotResume } from '../transports/transport';
import type { TransportOpener } from '../transports/transport-types';

/**
 * The client options the link itself reads (RemoteClientOptions adds the rest), with those of its
 * handshakes (handshake.ts) and recoveries (recovery.ts).
 */
export interface SessionLinkOptions extends HandshakeOptions, RecoveryOptions {
  transport: TransportSpec;
  /** SSH transports: prompts (host key, password) and connect stages; without them prompts fail. */
  ssh?: SshHooks;
  /** SSH transports: where the bundle and runtimes to install are (defaults: this build's). */
  sshArtifacts?: ArtifactLocations;
  /** SSH transports: use the host's shared master (TransportOpenerOptions.sshSharedMaster). */
  sshSharedMaster?: boolean;
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
  /**
   * A notification that is no process event (Tether extensions: `stream/*`,
   * `session/processChanged`), from `connection`, held by the link or not.
   */
  notification(connection: ExecServerConnection, method: string, params: unknown): void;
  /** `connection` ended (held by the link or not): what lived on it ends now. */
  connectionClosed(connection: ExecServerConnection): void;
  log(message: string): void;
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
      sshSharedMaster: options.sshSharedMaster,
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

  /**
   * Ends the link for good: the connection closes, and every followed process fails. Settles once
   * what the links ran has ended (see TransportOpener.dispose).
   */
  async close(): Promise<void> {
    if (this.lifetime.signal.aborted) return;
    this.lifetime.abort(clientClosed());
    this.releaseLink(clientClosed());
    const disposed = this.opener.dispose();
    for (const followed of [...this.hooks.processes()]) followed.fail('The client was closed.');
    this.enter({ kind: 'closed', since: Date.now() });
    await disposed;
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
        await this.recover(newOutage(this.options, this.info, 2, err.message, lostAt, lostAt), attempt);
      })
      .finally(settle);
  }

  /** Runs a handshake (handshake.ts); its connection's events count only while the link holds it. */
  private handshake(resumeSessionId: string | null, deadlineAt: number | null): Promise<void> {
    const holds = (link: ClientPhase, opened: ExecServerConnection | null): link is ConnectedPhase =>
      link.kind === 'connected' && link.connection === opened;
    return handshake(
      {
        opener: this.opener,
        options: this.options,
        signal: this.lifetime.signal,
        canReplaceLink: this.canReplaceLink,
        processes: () => this.hooks.processes(),
        events: (opened) => ({
          onClose: (error) => {
            const connection = opened();
            if (connection) this.hooks.connectionClosed(connection);
            const link = this.link;
            if (holds(link, connection)) this.handleLoss(link, error);
          },
          onNotification: (method, params) => {
            const connection = opened();
            if (connection) this.hooks.notification(connection, method, params);
          },
          onProtocolError: (message) => this.log(message),
          onStallChange: (stalled, silentMs) => {
            if (holds(this.link, opened())) this.hooks.stallChanged(stalled, silentMs);
          },
        }),
        install: (connection, sessionId, info) => this.install(connection, sessionId, info),
      },
      resumeSessionId,
      deadlineAt,
    );
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
    // A server that broke the protocol would break it again on a new link: that is no outage.
    if (link.connection.brokeProtocol) {
      this.fail(error);
      return;
    }
    const cannotResume = whyLinkCannotResume(this.options.transport);
    if (cannotResume !== null) {
      this.fail(new ClientError('transport', `${error.message} ${cannotResume}`));
      return;
    }
    this.log(`Connection lost: ${error.message} Reconnecting…`);
    const { attempt, settle } = newAttempt();
    const lastContactAt = link.connection.lastInboundAt;
    const outage = newOutage(this.options, this.info, 1, error.message, Date.now(), lastContactAt);
    this.recover(outage, attempt).finally(settle);
  }

  /** Runs a recovery (recovery.ts) for this link: each attempt resumes the session on a new link. */
  private recover(first: Outage, attempt: Attempt): Promise<void> {
    return recover(
      {
        options: this.options,
        signal: this.lifetime.signal,
        enter: (link, reason) => this.enter(link, reason),
        resume: async (deadlineAt) => {
          await this.opener.prepare(true);
          await this.handshake(this.sessionId, deadlineAt);
        },
        resumed: (attemptNo) => {
          this.log(`Reconnected after ${attemptNo} attempt(s); session ${this.sessionId} resumed.`);
          for (const followed of [...this.hooks.processes()]) followed.resync();
        },
        fail: (fatalError, bounds) => this.fail(fatalError, bounds),
      },
      first,
      attempt,
    );
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
