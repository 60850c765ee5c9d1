// RemoteExecServerClient: one logical, resumable session per environment. The facade: it follows
// processes (rebound and resynced after a reconnect), offers the file system and the calls, and
// publishes ConnectionState and health. The link state and its transitions (connect, handshake,
// loss, recovery) are the SessionLink's (session-link.ts), beside the states (link-state.ts).
import { randomUUID } from 'node:crypto';
import {
  Method,
  Notification,
  SessionProcessChangedNotification,
  TetherCapability,
  type EnvironmentInfo,
  type SessionSummary,
  type ListeningPortEntry,
  type ParamsOf,
  type RequestMethod,
  type ResultOf,
} from '../../../shared/protocol';
import type {
  CloseOptions,
  ConnectionState,
  ExecServerClientApi,
  HealthSnapshot,
  AttachProcessOptions,
  ProcessHandle,
  ProcessStartOptions,
} from '../api';
import { ClientError, isClientError } from '../client-error';
import type { ExecServerConnection } from './connection';
import {
  DEFAULT_RETAINED_BYTES,
  DEFAULT_RETAINED_BYTES_TOTAL,
  DEFAULT_RETAINED_EVENTS,
  HTTP_FORWARD_HEAD_TIMEOUT_MS,
  SESSION_END_TIMEOUT_MS,
} from '../constants';
import { HealthMonitor } from './health-monitor';
import { toConnectionState } from './link-state';
import { toPathUri } from '../files/path-uri';
import { RetainedOutputBudget } from '../processes/retained-budget';
import {
  ProcessSession,
  type ProcessSessionOps,
  type ProcessSessionOptions,
} from '../processes/process-session';
import { RemoteFileSystem } from '../files/remote-file-system';
import { SessionLink, type SessionLinkOptions } from './session-link';
import { processStartParams } from '../processes/start-params';
import { errorMessage } from '../../../shared/error-message';
import type * as net from 'node:net';
import type { StreamOpenResult } from '../../../shared/protocol';
import { StreamMux, type StreamTarget } from '../forwarding/stream-mux';
import {
  HttpRequests,
  probeHttpRequest,
  type HttpRequestSpec,
  type HttpResponseSink,
} from '../forwarding/http-requests';
import { HttpLink } from '../forwarding/http-link';
import type { ForwardingMode } from '../forwarding/port-forward';

export interface RemoteClientOptions extends SessionLinkOptions {
  /** Bounds of each process's retained event log (replayed to late subscribers). */
  retainedEvents?: number;
  retainedBytes?: number;
  /** Bound on the retained output of all processes together (DEFAULT_RETAINED_BYTES_TOTAL). */
  retainedBytesTotal?: number;
  /** Reconnect notices and protocol complaints, one line each. */
  log?: (message: string) => void;
  /** How long an HTTP forward's request waits for its response headers (HTTP_FORWARD_HEAD_TIMEOUT_MS). */
  httpHeadTimeoutMs?: number;
}

/** A process of another session of this credential started, exited or closed. */
export type SessionProcessChange = SessionProcessChangedNotification;

/** Runs a subscriber; one that throws must not break the client's own bookkeeping. */
function guarded(run: () => void): void {
  try {
    run();
  } catch (error) {
    process.emitWarning(`A client listener threw: ${errorMessage(error)}`);
  }
}

export class RemoteExecServerClient implements ExecServerClientApi {
  private readonly link: SessionLink;
  /** toConnectionState(link), derived once per transition so listeners and `state` agree. */
  private publicState: ConnectionState = { kind: 'idle' };
  /** Every followed process of this session, by process id: rebound and resynced after a reconnect. */
  private readonly processes = new Map<string, ProcessSession>();
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();
  private readonly healthListeners = new Set<(health: HealthSnapshot) => void>();
  private readonly sessionChangeListeners = new Set<(change: SessionProcessChange) => void>();
  private readonly monitor = new HealthMonitor();
  private lastHealthKey = '';
  private readonly processOps: ProcessSessionOps;
  /** Retained output of every process of this client, bounded together. */
  private readonly retainedBudget: RetainedOutputBudget;
  readonly fs: RemoteFileSystem;
  /** TCP streams to the host's loopback ports (`tetherStreams`), for port forwarding. */
  private readonly streams: StreamMux;
  /** codex's http/request on this client's own connections (used by the client a HttpLink opens). */
  private readonly httpRequests: HttpRequests;
  /** The dedicated second connection HTTP forwards to a codex server take (opened on first use). */
  private readonly httpLink: HttpLink;
  /** How each connection's server forwards, asked once per connection (forwardingMode). */
  private readonly modes = new WeakMap<ExecServerConnection, Promise<ForwardingMode>>();

  constructor(private readonly options: RemoteClientOptions) {
    this.link = new SessionLink(options, {
      processes: () => this.processes.values(),
      entered: (link, reason) => {
        const state = toConnectionState(link);
        this.publicState = state;
        this.monitor.recordState(state, reason);
        for (const listener of [...this.stateListeners]) guarded(() => listener(state));
        this.emitHealth(true);
      },
      installed: () => this.monitor.resetSamples(),
      stallChanged: (stalled, silentMs) => {
        this.monitor.recordStall(stalled, silentMs);
        this.emitHealth(true);
      },
      onSample: (rttMs) => this.monitor.addSample(rttMs),
      onSettled: () => this.emitHealth(true),
      onTick: () => this.emitHealth(false),
      notification: (connection, method, params) => {
        if (this.streams.notification(connection, method, params)) return;
        if (this.httpRequests.notification(connection, method, params)) return;
        // The other sessions' news counts only from the live link (a closing one may still talk).
        if (connection === this.connection) this.handleNotification(method, params);
      },
      connectionClosed: (connection) => {
        this.streams.connectionClosed(connection);
        this.httpRequests.connectionClosed(connection);
      },
      log: (message) => this.options.log?.(message),
    });
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
    this.streams = new StreamMux({
      ready: (signal) => this.readyUnless(signal),
      hasCapability: (name) => this.hasCapability(name),
    });
    this.httpRequests = new HttpRequests({
      ready: (signal) => this.readyUnless(signal),
      headTimeoutMs: options.httpHeadTimeoutMs ?? HTTP_FORWARD_HEAD_TIMEOUT_MS,
    });
    this.httpLink = new HttpLink(() => {
      // Its own session: nothing of the main one is resumed there.
      const { resumeSessionId: _resumed, ...own } = this.options;
      return new RemoteExecServerClient({ ...own, log: (line) => this.options.log?.(`HTTP link: ${line}`) });
    });
    this.fs = new RemoteFileSystem({
      callOnce: (method, params) => this.callOnce(method, params),
      hasCapability: (name) => this.hasCapability(name),
    });
  }

  get state(): ConnectionState {
    return this.publicState;
  }

  get environmentInfo(): EnvironmentInfo | null {
    return this.link.environmentInfo;
  }

  get currentSessionId(): string | null {
    return this.link.currentSessionId;
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
    return this.link.environmentInfo?.capabilities?.[name] === true;
  }

  /** Whether the current link carries binary data frames (agreed in its initialize). */
  get binaryFrames(): boolean {
    const state = this.link.state;
    return state.kind === 'connected' && state.connection.binaryFramesAgreed;
  }

  health(): HealthSnapshot {
    const state = this.link.state;
    const link = state.kind === 'connected' ? state : null;
    return this.monitor.snapshot({
      lastContactAt: link ? link.connection.lastInboundAt : this.link.lastContactAt,
      stalled: link?.connection.stalled ?? false,
      stallReconnectAt: link?.connection.giveUpAt ?? null,
      probeAgeMs: link?.probe.outstandingMs ?? null,
    });
  }

  async connect(): Promise<void> {
    await this.link.ready();
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

  // ── Other sessions of the same credential (tetherSessionProcesses) ──────────────────────────

  /** Throws ClientError 'unsupported' unless the server lists other sessions (codex does not). */
  private async requireSessionProcesses(): Promise<void> {
    await this.ready();
    if (!this.hasCapability(TetherCapability.sessionProcesses)) {
      throw new ClientError(
        'unsupported',
        'Not available on this server: it does not show the processes of other clients (no ' +
          "tetherSessionProcesses extension; a codex exec-server or an older Tether's has none).",
      );
    }
  }

  /** The host's listening TCP ports and their processes, in one call (`ports/listening`). */
  async listeningPorts(): Promise<ListeningPortEntry[]> {
    await this.ready();
    if (!this.hasCapability(TetherCapability.listeningPorts)) {
      throw new ClientError(
        'unsupported',
        'Not available on this server: it does not list listening ports (no tetherListeningPorts extension).',
      );
    }
    return (await this.callRetrying(Method.portsListening, {})).ports;
  }

  /** Every session of this credential on the server, this client's own included (`current`). */
  async listSessions(): Promise<SessionSummary[]> {
    await this.requireSessionProcesses();
    return (await this.callRetrying(Method.sessionList, {})).sessions;
  }

  /**
   * Calls `listener` when a process of another session of this credential starts, exits or closes.
   * The server remembers the subscription with the session, so it lasts through reconnects.
   */
  async watchSessions(listener: (change: SessionProcessChange) => void): Promise<() => void> {
    await this.requireSessionProcesses();
    this.sessionChangeListeners.add(listener);
    await this.callRetrying(Method.sessionSubscribe, {});
    return () => this.sessionChangeListeners.delete(listener);
  }

  /**
   * Follows process `processId` of session `sessionId` (another client's) in this session, from
   * the first output the server retains, then live. The handle writes, resizes and signals it as
   * the owner's own would; `keepProcess` makes it this session's.
   */
  async attachOtherProcess(
    sessionId: string,
    processId: string,
    options: { tty?: boolean } = {},
  ): Promise<ProcessHandle> {
    await this.requireSessionProcesses();
    const attachId = `attached-${randomUUID()}`;
    const summary = await this.callOnce(Method.processAttach, { sessionId, processId, attachId });
    return this.attachProcess(attachId, { afterSeq: 0, tty: options.tty ?? summary.tty });
  }

  /** Moves an attached process (by the handle's id) under this session: its life is ours now. */
  async keepProcess(attachId: string): Promise<void> {
    await this.requireSessionProcesses();
    await this.callOnce(Method.processKeep, { processId: attachId });
  }

  /** Stops following an attached process; it runs on under its owner. */
  async detachOtherProcess(handle: ProcessHandle): Promise<void> {
    handle.dispose();
    await this.callRetrying(Method.processDetach, { processId: handle.processId }).catch(() => undefined);
  }

  private handleNotification(method: string, params: unknown): void {
    if (method !== Notification.sessionProcessChanged) return;
    const parsed = SessionProcessChangedNotification.safeParse(params);
    if (!parsed.success) {
      this.options.log?.(`The server sent a malformed ${method}.`);
      return;
    }
    for (const listener of [...this.sessionChangeListeners]) guarded(() => listener(parsed.data));
  }

  reconnectNow(): void {
    this.link.reconnectNow();
  }

  async close(options: CloseOptions = {}): Promise<void> {
    if (options.endSession) await this.endSession();
    const linkClosed = this.link.close();
    this.streams.closeAll();
    this.httpRequests.closeAll();
    await Promise.all([this.httpLink.close(), linkClosed]);
  }

  /** session/end on the link as it is now: a closing client does not wait for a reconnect. */
  private async endSession(): Promise<void> {
    const connection = this.connection;
    if (!connection || !this.hasCapability(TetherCapability.sessionEnd)) return;
    try {
      await connection.call(Method.sessionEnd, {}, { timeoutMs: SESSION_END_TIMEOUT_MS });
    } catch (error) {
      // The link goes anyway; the session then waits out its TTL on the server.
      this.options.log?.(`Could not end the session: ${errorMessage(error)}`);
    }
  }

  /**
   * Pipes `socket` (paused, allowHalfOpen) to a TCP port on the host's loopback. Waits for the link
   * while it recovers, until `signal` aborts; the socket is reset when the host refuses.
   */
  pipeStream(socket: net.Socket, target: StreamTarget, signal?: AbortSignal): Promise<StreamOpenResult> {
    return this.streams.pipe(socket, target, signal);
  }

  /**
   * How this server forwards ports: `streams` with tetherStreams, else `http` when it serves
   * http/request (codex's); asked once per connection with a request codex answers -32602 and a
   * server without the method -32601. Waits for the link until `signal` aborts.
   */
  async forwardingMode(signal?: AbortSignal): Promise<ForwardingMode> {
    const connection = await this.readyUnless(signal);
    if (this.hasCapability(TetherCapability.streams)) return 'streams';
    let mode = this.modes.get(connection);
    if (!mode) {
      mode = probeHttpRequest(connection);
      this.modes.set(connection, mode);
      // A probe cut off by a drop tells nothing: ask again on the next connection.
      mode.catch(() => this.modes.delete(connection));
    }
    return mode;
  }

  /** http/request on the dedicated second connection (HTTP forwarding against codex servers). */
  httpRequest(spec: HttpRequestSpec, sink: HttpResponseSink, signal?: AbortSignal): Promise<void> {
    return this.httpLink.request(spec, sink, signal);
  }

  /** http/request on this client's own connection; HttpLink calls it on its client. */
  requestHere(spec: HttpRequestSpec, sink: HttpResponseSink, signal?: AbortSignal): Promise<void> {
    return this.httpRequests.request(spec, sink, signal);
  }

  /** Whether the dedicated HTTP connection is open now. */
  get httpLinkOpen(): boolean {
    return this.httpLink.isOpen;
  }

  /** Streams open on this client now. */
  get openStreamCount(): number {
    return this.streams.openCount;
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
    return this.link.connection;
  }

  private ready(): Promise<ExecServerConnection> {
    return this.link.ready();
  }

  /** ready(), given up when `signal` aborts (its reason is the error). */
  private readyUnless(signal?: AbortSignal): Promise<ExecServerConnection> {
    if (!signal) return this.ready();
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      this.ready().then(
        (connection) => {
          signal.removeEventListener('abort', onAbort);
          resolve(connection);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error as Error);
        },
      );
    });
  }

  // ── Health ──────────────────────────────────────────────────────────────────────────────────

  /** Tells health listeners; unforced updates only when a flag changed. */
  private emitHealth(force: boolean): void {
    if (this.healthListeners.size === 0) return;
    const snapshot = this.health();
    const key = `${snapshot.degraded}/${snapshot.stalled}`;
    if (!force && key === this.lastHealthKey) return;
    this.lastHealthKey = key;
    for (const listener of [...this.healthListeners]) guarded(() => listener(snapshot));
  }
}
