// RemoteExecServerClient: one logical, resumable session per environment. Owns the session id,
// the link state (link-state.ts: connecting, connected, waiting, reconnecting, failed, each with
// what exists only then) and the transitions between them, and the process sessions that are
// rebound and resynced after a reconnect. It publishes ConnectionState and health.
import { randomUUID } from 'node:crypto';
import {
  ErrorCode,
  Method,
  Notification,
  type EnvironmentInfo,
  type ParamsOf,
  type RequestMethod,
  type ResultOf,
} from '../../../shared/protocol';
import type {
  ConnectionState,
  ExecServerClientApi,
  HealthSnapshot,
  AttachProcessOptions,
  ProcessHandle,
  ProcessStartOptions,
  TransportSpec,
} from '../api';
import { BackoffWait, backoffDelay, DEFAULT_BACKOFF, type BackoffSchedule } from './backoff';
import { ClientError, isClientError, isTransientCode, toClientError } from '../client-error';
import { ExecServerConnection } from './connection';
import {
  CLIENT_NAME,
  CONNECT_TIMEOUT_MS,
  DEFAULT_RETAINED_BYTES,
  DEFAULT_RETAINED_BYTES_TOTAL,
  DEFAULT_RETAINED_EVENTS,
  INITIALIZE_TIMEOUT_MS,
} from '../constants';
import { HealthMonitor } from './health-monitor';
import {
  toConnectionState,
  type Attempt,
  type ConnectedLink,
  type LinkState,
  type Outage,
} from './link-state';
import { toPathUri } from '../files/path-uri';
import { RetainedOutputBudget } from '../processes/retained-budget';
import {
  ProcessSession,
  type ProcessSessionOps,
  type ProcessSessionOptions,
} from '../processes/process-session';
import { RemoteFileSystem } from '../files/remote-file-system';
import { RttProbe } from './rtt-probe';
import { deadlineError, expiredAt, outageBounds, type OutageBounds } from './recovery-policy';
import { processStartParams } from '../processes/start-params';
import type { ArtifactLocations } from '../remote-host/local-artifacts';
import type { SshHooks } from '../transports/ssh/ssh-hooks';
import { transportOpener, whyLinkCannotResume } from '../transports/transport';
import type { TransportOpener } from '../transports/transport-types';
import { errorMessage } from '../../../shared/error-message';

export interface RemoteClientOptions {
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
  connectTimeoutMs?: number;
  initializeTimeoutMs?: number;
  /**
   * Ask for binary data frames (Tether's extension; WebSocket links only) so output and file
   * blocks travel without base64. Default true; codex's server ignores the request.
   */
  binaryFrames?: boolean;
  /** Bounds of each process's retained event log (replayed to late subscribers). */
  retainedEvents?: number;
  retainedBytes?: number;
  /** Bound on the retained output of all processes together (DEFAULT_RETAINED_BYTES_TOTAL). */
  retainedBytesTotal?: number;
  /** Reconnect notices and protocol complaints, one line each. */
  log?: (message: string) => void;
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

/** Errors after which another reconnect attempt can still succeed. */
function isRetryable(error: ClientError): boolean {
  if (isTransientCode(error.code)) return true;
  return error.code === 'rpc' && error.rpc?.code === ErrorCode.alreadyAttached;
}

/** Runs a subscriber; one that throws must not break the client's own bookkeeping. */
function guarded(run: () => void): void {
  try {
    run();
  } catch (error) {
    process.emitWarning(`A client listener threw: ${errorMessage(error)}`);
  }
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

export class RemoteExecServerClient implements ExecServerClientApi {
  private link: LinkState = { kind: 'idle' };
  /** toConnectionState(link), derived once per transition so listeners and `state` agree. */
  private publicState: ConnectionState = { kind: 'idle' };
  private info: EnvironmentInfo | null = null;
  /** The logical session: kept through outages, dropped only when a failed client starts over. */
  private sessionId: string | null;
  /** Aborted by close(): ends a backoff wait and keeps a late handshake from installing. */
  private readonly lifetime = new AbortController();
  /** Every followed process of this session, by process id: rebound and resynced after a reconnect. */
  private readonly processes = new Map<string, ProcessSession>();
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();
  private readonly healthListeners = new Set<(health: HealthSnapshot) => void>();
  private readonly monitor = new HealthMonitor();
  private lastHealthKey = '';
  /** Last contact of the previous connection, shown while there is none. */
  private lastContactAt: number | null = null;
  private readonly processOps: ProcessSessionOps;
  /** Opens each connection's transport; holds what outlives one link (an SSH master). */
  private readonly opener: TransportOpener;
  /** Retained output of every process of this client, bounded together. */
  private readonly retainedBudget: RetainedOutputBudget;
  readonly fs: RemoteFileSystem;

  constructor(private readonly options: RemoteClientOptions) {
    this.opener = transportOpener(options.transport, {
      ssh: options.ssh,
      sshArtifacts: options.sshArtifacts,
    });
    this.sessionId = options.resumeSessionId ?? null;
    this.retainedBudget = new RetainedOutputBudget(
      options.retainedBytesTotal ?? DEFAULT_RETAINED_BYTES_TOTAL,
    );
    this.processOps = {
      callOnce: (method, params) => this.callOnce(method, params),
      callRetrying: (method, params) => this.callRetrying(method, params),
      notify: (method, params) => this.connection?.notify(method, params),
      hasCapability: (name) => this.hasCapability(name),
      forget: (processId) => {
        this.processes.delete(processId);
        this.connection?.unroute(processId);
      },
    };
    this.fs = new RemoteFileSystem({
      callOnce: (method, params) => this.callOnce(method, params),
      hasCapability: (name) => this.hasCapability(name),
    });
  }

  get state(): ConnectionState {
    return this.publicState;
  }

  get environmentInfo(): EnvironmentInfo | null {
    return this.info;
  }

  get currentSessionId(): string | null {
    return this.sessionId;
  }

  onStateChange(listener: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  onHealthChange(listener: (health: HealthSnapshot) => void): () => void {
    this.healthListeners.add(listener);
    return () => this.healthListeners.delete(listener);
  }

  hasCapability(name: string): boolean {
    return this.info?.capabilities?.[name] === true;
  }

  health(): HealthSnapshot {
    const link = this.link.kind === 'connected' ? this.link : null;
    return this.monitor.snapshot({
      lastContactAt: link ? link.connection.lastInboundAt : this.lastContactAt,
      stalled: link?.connection.stalled ?? false,
      probeAgeMs: link?.probe.outstandingMs ?? null,
    });
  }

  async connect(): Promise<void> {
    await this.ready();
  }

  async startProcess(options: ProcessStartOptions): Promise<ProcessHandle> {
    // A relative cwd is the caller's mistake: refuse it before connecting, not after.
    toPathUri(options.cwd);
    await this.ready();
    const processId = options.processId ?? randomUUID();
    if (this.processes.has(processId)) {
      throw new ClientError(
        'invalidArgument',
        `Process id ${processId} is already in use by a running process.`,
      );
    }
    const params = processStartParams(options, processId, (name) => this.hasCapability(name));
    // Routed before the request goes out: output may arrive ahead of the start response.
    const followed = this.follow({
      processId,
      flowControl: params.outputWindowBytes !== undefined,
      ...(params.outputWindowBytes != null ? { outputWindowBytes: params.outputWindowBytes } : {}),
      tty: options.tty,
    });
    try {
      const result = await this.callOnce(Method.processStart, params);
      followed.markStarted(result.pid ?? null);
      return followed;
    } catch (error) {
      followed.dispose();
      if (isClientError(error, 'disconnected')) {
        // The start may have reached the server: make sure no orphan keeps running.
        this.callRetrying(Method.processTerminate, { processId }).catch(() => undefined);
        throw new ClientError(
          'disconnected',
          `The connection dropped while starting ${options.argv[0] ?? 'the process'}; it was not retried ` +
            '(any half-started process is being terminated). Start it again.',
        );
      }
      throw error;
    }
  }

  /** A new ProcessSession with this client's retention bounds, routed from now on. */
  private follow(options: Omit<ProcessSessionOptions, 'retained' | 'budget'>): ProcessSession {
    const followed = new ProcessSession(this.processOps, {
      ...options,
      retained: {
        maxEvents: this.options.retainedEvents ?? DEFAULT_RETAINED_EVENTS,
        maxBytes: this.options.retainedBytes ?? DEFAULT_RETAINED_BYTES,
      },
      budget: this.retainedBudget,
    });
    this.processes.set(options.processId, followed);
    this.connection?.route(options.processId, followed.accept);
    return followed;
  }

  async attachProcess(processId: string, options: AttachProcessOptions = {}): Promise<ProcessHandle> {
    await this.ready();
    if (this.processes.has(processId)) {
      throw new ClientError('invalidArgument', `Process ${processId} is already followed by this client.`);
    }
    const followed = this.follow({
      processId,
      flowControl: options.flowControl ?? options.outputWindowBytes !== undefined,
      ...(options.outputWindowBytes !== undefined ? { outputWindowBytes: options.outputWindowBytes } : {}),
      tty: options.tty ?? false,
      afterSeq: options.afterSeq ?? 0,
    });
    // Already started by an earlier client of this session: read back what the server retains.
    followed.markStarted(null);
    followed.resync();
    return followed;
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
    }
  }

  async close(): Promise<void> {
    if (this.lifetime.signal.aborted) return;
    this.lifetime.abort(clientClosed());
    this.releaseLink(clientClosed());
    this.opener.dispose();
    for (const followed of [...this.processes.values()]) followed.fail('The client was closed.');
    this.enter({ kind: 'closed', since: Date.now() });
  }

  // ── Calls ───────────────────────────────────────────────────────────────────────────────────

  /** Sends once on a usable connection (waiting for recovery first); never replayed. */
  async callOnce<M extends RequestMethod>(
    method: M,
    params: ParamsOf<M>,
    options: { timeoutMs?: number } = {},
  ): Promise<ResultOf<M>> {
    const connection = await this.ready();
    try {
      return await connection.call(method, params, options);
    } catch (error) {
      if (isClientError(error, 'disconnected')) {
        throw new ClientError(
          'disconnected',
          `The connection dropped while ${method} was in flight; it may or may not have taken effect and ` +
            `was not retried (${error.message})`,
        );
      }
      throw error;
    }
  }

  /** Idempotent calls: resent on the recovered connection until answered or the client fails. */
  async callRetrying<M extends RequestMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    for (;;) {
      const connection = await this.ready();
      try {
        return await connection.call(method, params);
      } catch (error) {
        if (!isClientError(error, 'disconnected')) throw error;
      }
    }
  }

  private get connection(): ExecServerConnection | null {
    return this.link.kind === 'connected' ? this.link.connection : null;
  }

  /** Resolves with a usable connection, connecting or waiting for recovery as needed. */
  private async ready(): Promise<ExecServerConnection> {
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

  // ── Connecting and recovery ─────────────────────────────────────────────────────────────────

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
      },
      remaining(this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS),
      resumeSessionId !== null,
    );
    for (const followed of this.processes.values()) connection.route(followed.processId, followed.accept);
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
    const probe = new RttProbe(connection, {
      onSample: (rttMs) => this.monitor.addSample(rttMs),
      onSettled: () => this.emitHealth(true),
      onTick: () => this.emitHealth(false),
    });
    this.sessionId = sessionId;
    this.info = info;
    this.enter({ kind: 'connected', since: Date.now(), sessionId, connection, probe });
    // A new connection's link may take a different path: its RTT starts from scratch.
    this.monitor.resetSamples();
    probe.start();
  }

  private handleLoss(link: ConnectedLink, error: ClientError): void {
    if (this.lifetime.signal.aborted) return;
    this.lastContactAt = link.connection.lastInboundAt;
    link.probe.dispose();
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
        for (const followed of [...this.processes.values()]) followed.resync();
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
    for (const followed of [...this.processes.values()]) {
      followed.fail(`The connection to the environment failed: ${fatalError.message}`);
    }
  }

  // ── State and health ────────────────────────────────────────────────────────────────────────

  private enter(link: LinkState, reason?: string): void {
    this.link = link;
    const state = toConnectionState(link);
    this.publicState = state;
    this.monitor.recordState(state, reason);
    for (const listener of [...this.stateListeners]) guarded(() => listener(state));
    this.emitHealth(true);
  }

  /** Tells health listeners; unforced updates only when a flag changed. */
  private emitHealth(force: boolean): void {
    if (this.healthListeners.size === 0) return;
    const snapshot = this.health();
    const key = `${snapshot.degraded}/${snapshot.stalled}`;
    if (!force && key === this.lastHealthKey) return;
    this.lastHealthKey = key;
    for (const listener of [...this.healthListeners]) guarded(() => listener(snapshot));
  }

  private log(message: string): void {
    this.options.log?.(message);
  }
}
