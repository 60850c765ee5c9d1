// RemoteExecServerClient: one logical, resumable session per environment. Owns the session id, the
// current connection, the single in-flight connect/recovery attempt shared by every caller, the
// terminal error, and the process sessions that are rebound and resynced after a reconnect.
import { randomUUID } from 'node:crypto';
import {
  ErrorCode,
  Method,
  Notification,
  type EnvironmentInfo,
  type InitializeResult,
  type ParamsOf,
  type RequestMethod,
  type ResultOf,
} from '../../shared/protocol';
import type {
  ConnectionState,
  ExecServerClientApi,
  HealthSnapshot,
  ProcessHandle,
  ProcessStartOptions,
  TransportSpec,
} from './api';
import { backoffDelay } from './backoff';
import { ClientError, isClientError, toClientError } from './client-error';
import { ExecServerConnection } from './connection';
import {
  CLIENT_NAME,
  CONNECT_TIMEOUT_MS,
  DEFAULT_RECOVERY_DEADLINE_MS,
  DEFAULT_RETAINED_BYTES,
  DEFAULT_RETAINED_EVENTS,
  HEALTH_SAMPLE_INTERVAL_MS,
  INITIALIZE_TIMEOUT_MS,
  PROBE_TIMEOUT_MS,
} from './constants';
import { HealthMonitor } from './health-monitor';
import { toPathUri } from './path-uri';
import { ProcessSession, type ProcessSessionOps } from './process-session';
import { RemoteFileSystem } from './remote-file-system';
import { processStartParams } from './start-params';
import { errorMessage } from '../../shared/error-message';

export interface RemoteClientOptions {
  transport: TransportSpec;
  clientName?: string;
  /** How long recovery may take after a loss before the client fails (default 60 s). */
  recoveryDeadlineMs?: number;
  connectTimeoutMs?: number;
  initializeTimeoutMs?: number;
  /** Bounds of each process's retained event log (replayed to late subscribers). */
  retainedEvents?: number;
  retainedBytes?: number;
  /** Reconnect notices and protocol complaints, one line each. */
  log?: (message: string) => void;
}

/** Errors after which another reconnect attempt can still succeed. */
function isRetryable(error: ClientError): boolean {
  if (error.code === 'disconnected' || error.code === 'transport' || error.code === 'timeout') return true;
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

export class RemoteExecServerClient implements ExecServerClientApi {
  private currentState: ConnectionState = { kind: 'idle' };
  private info: EnvironmentInfo | null = null;
  private sessionId: string | null = null;
  private connection: ExecServerConnection | null = null;
  /** The one connect or recovery in flight; every caller waits on it. Never rejects. */
  private attempt: Promise<void> | null = null;
  private terminal: ClientError | null = null;
  private closedByUser = false;
  private wakeBackoff: (() => void) | null = null;
  private readonly sessions = new Map<string, ProcessSession>();
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();
  private readonly healthListeners = new Set<(health: HealthSnapshot) => void>();
  private readonly monitor = new HealthMonitor();
  private healthTimer: NodeJS.Timeout | null = null;
  private probeStartedAt: number | null = null;
  private lastHealthKey = '';
  /** Last contact of the previous connection, shown while there is none. */
  private lastContactAt: number | null = null;
  private readonly sessionOps: ProcessSessionOps;
  readonly fs: RemoteFileSystem;

  constructor(private readonly options: RemoteClientOptions) {
    this.sessionOps = {
      callOnce: (method, params) => this.callOnce(method, params),
      callRetrying: (method, params) => this.callRetrying(method, params),
      notify: (method, params) => this.connection?.notify(method, params),
      hasCapability: (name) => this.hasCapability(name),
      forget: (processId) => {
        this.sessions.delete(processId);
        this.connection?.unroute(processId);
      },
    };
    this.fs = new RemoteFileSystem({
      callOnce: (method, params) => this.callOnce(method, params),
      hasCapability: (name) => this.hasCapability(name),
    });
  }

  get state(): ConnectionState {
    return this.currentState;
  }

  get environmentInfo(): EnvironmentInfo | null {
    return this.info;
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
    const connection = this.connection;
    return this.monitor.snapshot({
      lastContactAt: connection ? connection.lastInboundAt : (this.lastContactAt ?? null),
      stalled: connection?.stalled ?? false,
      probeAgeMs: this.probeStartedAt === null ? null : Date.now() - this.probeStartedAt,
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
    if (this.sessions.has(processId)) {
      throw new ClientError(
        'invalidArgument',
        `Process id ${processId} is already in use by a running process.`,
      );
    }
    const params = processStartParams(options, processId, (name) => this.hasCapability(name));
    const session = new ProcessSession(this.sessionOps, {
      processId,
      retained: {
        maxEvents: this.options.retainedEvents ?? DEFAULT_RETAINED_EVENTS,
        maxBytes: this.options.retainedBytes ?? DEFAULT_RETAINED_BYTES,
      },
      flowControl: params.outputWindowBytes !== undefined,
    });
    // Routed before the request goes out: output may arrive ahead of the start response.
    this.sessions.set(processId, session);
    this.connection?.route(processId, session.accept);
    try {
      const result = await this.callOnce(Method.processStart, params);
      session.markStarted(result.pid ?? null);
      return session;
    } catch (error) {
      session.dispose();
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

  reconnectNow(): void {
    if (this.closedByUser) return;
    if (this.currentState.kind === 'reconnecting') {
      this.wakeBackoff?.();
    } else if (this.currentState.kind === 'failed') {
      // A failed session cannot be resumed: start over with a fresh session.
      this.sessionId = null;
      this.terminal = null;
      this.ready().catch(() => undefined);
    } else if (this.currentState.kind === 'idle') {
      this.ready().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    if (this.closedByUser) return;
    this.closedByUser = true;
    this.wakeBackoff?.();
    this.stopHealth();
    const connection = this.connection;
    this.connection = null;
    connection?.close(new ClientError('closed', 'The client was closed.'));
    for (const session of [...this.sessions.values()]) session.fail('The client was closed.');
    this.setState({ kind: 'closed', since: Date.now() });
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

  /** Resolves with a usable connection, connecting or waiting for recovery as needed. */
  private async ready(): Promise<ExecServerConnection> {
    // Once this call has seen an attempt end, a failure is its answer: no attempt per caller.
    let sawAttempt = false;
    for (;;) {
      if (this.closedByUser) throw new ClientError('closed', 'The client was closed.');
      const connection = this.connection;
      if (this.currentState.kind === 'connected' && connection && !connection.closed) return connection;
      if (this.attempt) {
        await this.attempt;
        sawAttempt = true;
        continue;
      }
      if (this.currentState.kind === 'connected') {
        // The connection ended without its loss being handled yet: recover, never start afresh.
        this.handleLoss(
          connection?.closedError ?? new ClientError('disconnected', 'The connection was lost.'),
        );
        continue;
      }
      if (this.currentState.kind === 'failed') {
        // Without a session there is nothing to lose, so a new call may simply try again.
        if (this.sessionId !== null || sawAttempt) throw this.terminal!;
        this.terminal = null;
      }
      sawAttempt = true;
      this.attempt = this.connectFresh().finally(() => {
        this.attempt = null;
      });
    }
  }

  // ── Connecting and recovery ─────────────────────────────────────────────────────────────────

  private async connectFresh(): Promise<void> {
    this.setState({ kind: 'connecting', since: Date.now() });
    try {
      const { connection, result } = await this.openSession(null, Date.now() + CONNECT_TIMEOUT_MS * 2);
      if (this.closedByUser) {
        connection.close();
        return;
      }
      await this.install(connection, result);
    } catch (error) {
      if (!this.closedByUser) this.fail(toClientError(error));
    }
  }

  /** Opens a transport, sends initialize (+ initialized); the caller installs the result. */
  private async openSession(
    resumeSessionId: string | null,
    deadlineAt: number,
  ): Promise<{ connection: ExecServerConnection; result: InitializeResult }> {
    const remaining = (limit: number): number => Math.max(1_000, Math.min(limit, deadlineAt - Date.now()));
    let connection: ExecServerConnection | null = null;
    connection = await ExecServerConnection.open(
      this.options.transport,
      {
        onClose: (error) => {
          if (connection !== null && connection === this.connection) this.handleLoss(error);
        },
        onProtocolError: (message) => this.log(message),
      },
      remaining(this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS),
    );
    for (const session of this.sessions.values()) connection.route(session.processId, session.accept);
    try {
      const result = await connection.call(
        Method.initialize,
        { clientName: this.options.clientName ?? CLIENT_NAME, resumeSessionId },
        { timeoutMs: remaining(this.options.initializeTimeoutMs ?? INITIALIZE_TIMEOUT_MS) },
      );
      if (resumeSessionId !== null && result.sessionId !== resumeSessionId) {
        throw new ClientError(
          'protocol',
          `The server resumed a different session (${result.sessionId}) than ours (${resumeSessionId}).`,
        );
      }
      connection.notify(Notification.initialized, {});
      return { connection, result };
    } catch (error) {
      const err = toClientError(error);
      connection.close(err);
      if (err.code === 'timeout' && connection.lastProtocolError) {
        throw new ClientError('protocol', `${err.message} ${connection.lastProtocolError}`);
      }
      throw err;
    }
  }

  private async install(connection: ExecServerConnection, result: InitializeResult): Promise<void> {
    // Codex's client asks environment/info only if initialize did not carry it.
    const info = result.environmentInfo ?? (await connection.call(Method.environmentInfo, undefined));
    if (connection.closed) {
      throw new ClientError('disconnected', 'The connection dropped right after the handshake.');
    }
    this.connection = connection;
    this.sessionId = result.sessionId;
    this.info = info;
    this.setState({ kind: 'connected', since: Date.now(), sessionId: result.sessionId });
    this.startHealth(connection);
  }

  private handleLoss(error: ClientError): void {
    if (this.closedByUser || this.currentState.kind === 'failed') return;
    this.lastContactAt = this.connection?.lastInboundAt ?? this.lastContactAt;
    this.connection = null;
    this.stopHealth();
    if (this.options.transport.kind === 'stdio') {
      this.fail(
        new ClientError(
          'transport',
          `${error.message} A new stdio server process cannot resume the old session, so its processes are gone.`,
        ),
      );
      return;
    }
    this.log(`Connection lost: ${error.message} Reconnecting…`);
    const deadlineAt = Date.now() + (this.options.recoveryDeadlineMs ?? DEFAULT_RECOVERY_DEADLINE_MS);
    this.attempt = this.recover(error.message, deadlineAt).finally(() => {
      this.attempt = null;
    });
  }

  private async recover(firstReason: string, deadlineAt: number): Promise<void> {
    let reason = firstReason;
    for (let attemptNo = 1; ; attemptNo++) {
      const wait = Math.min(backoffDelay(attemptNo), Math.max(0, deadlineAt - Date.now()));
      this.setState(
        {
          kind: 'reconnecting',
          since: Date.now(),
          attempt: attemptNo,
          nextRetryAt: wait > 0 ? Date.now() + wait : null,
          reason,
          deadlineAt,
        },
        reason,
      );
      if (wait > 0) {
        await this.sleep(wait);
        if (this.closedByUser) return;
        this.setState({
          ...(this.currentState as Extract<ConnectionState, { kind: 'reconnecting' }>),
          nextRetryAt: null,
        });
      }
      if (this.closedByUser) return;
      try {
        const { connection, result } = await this.openSession(this.sessionId, deadlineAt);
        if (this.closedByUser) {
          connection.close();
          return;
        }
        await this.install(connection, result);
        this.log(`Reconnected after ${attemptNo} attempt(s); session ${result.sessionId} resumed.`);
        for (const session of [...this.sessions.values()]) session.resync();
        return;
      } catch (error) {
        const err = toClientError(error);
        if (this.closedByUser) return;
        if (!isRetryable(err)) {
          this.fail(err);
          return;
        }
        reason = err.message;
        if (Date.now() >= deadlineAt) {
          this.fail(
            new ClientError(
              'recoveryDeadline',
              `Could not reconnect within ${Math.round((this.options.recoveryDeadlineMs ?? DEFAULT_RECOVERY_DEADLINE_MS) / 1000)} s ` +
                `(last error: ${reason}). The server may have dropped the session; reconnect to start a new one.`,
            ),
          );
          return;
        }
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakeBackoff = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeBackoff = done;
    });
  }

  private fail(error: ClientError): void {
    this.terminal = error;
    this.stopHealth();
    const connection = this.connection;
    this.connection = null;
    connection?.close(error);
    this.setState(
      { kind: 'failed', since: Date.now(), reason: error.message, code: error.code },
      error.message,
    );
    for (const session of [...this.sessions.values()]) {
      session.fail(`The connection to the environment failed: ${error.message}`);
    }
  }

  // ── State and health ────────────────────────────────────────────────────────────────────────

  private setState(state: ConnectionState, reason?: string): void {
    this.currentState = state;
    this.monitor.recordState(state, reason);
    for (const listener of [...this.stateListeners]) guarded(() => listener(state));
    this.emitHealth(true);
  }

  private startHealth(connection: ExecServerConnection): void {
    this.stopHealth();
    this.monitor.resetSamples();
    const probe = (): void => {
      if (this.probeStartedAt !== null || connection.closed) return;
      const startedAt = Date.now();
      const t0 = performance.now();
      this.probeStartedAt = startedAt;
      connection
        .call(Method.environmentStatus, undefined, { timeoutMs: PROBE_TIMEOUT_MS })
        .then(
          () => this.monitor.addSample(Math.round((performance.now() - t0) * 100) / 100),
          () => undefined,
        )
        .finally(() => {
          if (this.probeStartedAt === startedAt) this.probeStartedAt = null;
          this.emitHealth(true);
        });
    };
    probe();
    this.healthTimer = setInterval(() => {
      probe();
      this.emitHealth(false);
    }, HEALTH_SAMPLE_INTERVAL_MS);
    this.healthTimer.unref();
  }

  private stopHealth(): void {
    if (this.healthTimer) clearInterval(this.healthTimer);
    this.healthTimer = null;
    this.probeStartedAt = null;
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
