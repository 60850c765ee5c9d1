// ExecServerConnection: one live JSON-RPC binding over one transport. Owns request ids, pending
// calls and their timeouts, response validation, notification routing by processId (through a
// NotificationRouter), keepalive pings, liveness (a silent peer is declared dead) and the
// disconnect latch. Never reconnects.
// It also holds whether binary data frames were agreed in initialize, which decides how byte
// fields travel: raw in data frames, or as base64 in JSON text.
import {
  describeSchemaError,
  ErrorCode,
  isDataFrame,
  Method,
  MethodTable,
  Notification,
  ProcessClosedNotification,
  ProcessExitedNotification,
  ProcessOutputNotification,
  stringifyWithBytes,
  stringifyWithPayloads,
  UNDECODABLE_MESSAGE_ID,
  type InitializeResult,
  type ParamsOf,
  type RequestMethod,
  type ResultOf,
  writeDataFrame,
} from '../../../shared/protocol';
import type { ZodError } from 'zod';
import { ClientError, rpcError } from '../client-error';
import {
  DEAD_AFTER_MS,
  DEFAULT_CALL_TIMEOUT_MS,
  IDLE_PING_AFTER_MS,
  LIVENESS_TICK_MS,
  MAX_PENDING_CALLS,
  MAX_QUEUED_CALLS,
  STALLED_AFTER_MS,
} from '../constants';
import { frameText, parseDataFrame, parseFrame } from './message-decoder';
import { NotificationRouter, type ProcessEventSink, type WireProcessEvent } from './notification-router';
import type { Transport, TransportHandlers, TransportOpener } from '../transports/transport-types';

export type { ProcessEventSink, WireProcessEvent } from './notification-router';

export interface ConnectionEvents {
  /** The connection ended (peer gone, liveness timeout, or close()); fires exactly once. */
  onClose(error: ClientError): void;
  /** Something the peer sent made no sense; reported, never thrown. */
  onProtocolError?(message: string): void;
  /** Notifications other than process events (unknown ones included). */
  onNotification?(method: string, params: unknown): void;
  /**
   * The link became stalled (no byte back for STALLED_AFTER_MS while waiting for an answer), or
   * answers again; `silentMs` is how long it has been silent. Not called when it closes.
   */
  onStallChange?(stalled: boolean, silentMs: number): void;
}

interface PendingCall {
  method: RequestMethod;
  resolve(result: unknown): void;
  reject(error: ClientError): void;
  timer: NodeJS.Timeout;
}

const RECENTLY_TIMED_OUT_LIMIT = 256;

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function snippet(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

export class ExecServerConnection {
  private nextId = 1;
  private readonly pending = new Map<number, PendingCall>();
  /** Calls waiting for a free slot under MAX_PENDING_CALLS, in the order they were made. */
  private readonly queued: Array<{ send: () => void; reject: (error: ClientError) => void }> = [];
  private readonly recentlyTimedOut = new Set<number>();
  private readonly router = new NotificationRouter();
  private transport: Transport | null = null;
  private closedWith: ClientError | null = null;
  private readonly ticker: NodeJS.Timeout;
  private lastPingAt = 0;
  /** When we started waiting for the peer without having heard from it since (null: not waiting). */
  private awaitingSince: number | null = null;
  /** Epoch ms of the last inbound byte. */
  lastInboundAt: number = Date.now();
  /** The last malformed thing the peer sent, quoted in handshake errors. */
  lastProtocolError: string | null = null;
  /** Binary data frames agreed in this connection's initialize (never before its result). */
  private binaryFrames = false;
  /** The stall last reported through onStallChange. */
  private stallReported = false;

  private constructor(
    private readonly events: ConnectionEvents,
    /** A link without pings that stays stalled this long is closed (null: never, it cannot be replaced). */
    private readonly stallLimitMs: number | null,
  ) {
    this.ticker = setInterval(() => this.tick(), LIVENESS_TICK_MS);
    this.ticker.unref();
  }

  /** Opens the transport described by `spec`; rejects with a ClientError if that fails. */
  static async open(
    opener: TransportOpener,
    events: ConnectionEvents,
    connectTimeoutMs: number,
    resume = false,
    stallLimitMs: number | null = null,
  ): Promise<ExecServerConnection> {
    const connection = new ExecServerConnection(events, stallLimitMs);
    const handlers: TransportHandlers = {
      onMessage: (message, binary) => connection.handleMessage(message, binary === true),
      onActivity: () => connection.handleActivity(),
      onClose: (error) => connection.shutdown(error),
    };
    try {
      connection.transport = await opener.open(handlers, connectTimeoutMs, resume);
    } catch (error) {
      clearInterval(connection.ticker);
      throw error;
    }
    return connection;
  }

  /** Why the connection ended, once it has. */
  get closedError(): ClientError | null {
    return this.closedWith;
  }

  get closed(): boolean {
    return this.closedWith !== null;
  }

  get description(): string {
    return this.transport?.description ?? '';
  }

  /** Whether this link could carry binary data frames, i.e. whether to ask for them. */
  get canCarryBinaryFrames(): boolean {
    return this.transport?.sendDataFrame !== undefined;
  }

  /** True while we wait for the peer and it has been silent for longer than STALLED_AFTER_MS. */
  get stalled(): boolean {
    return this.awaitingSince !== null && Date.now() - this.awaitingSince > STALLED_AFTER_MS;
  }

  /**
   * When this connection closes itself if the peer stays silent: DEAD_AFTER_MS into the wait on a
   * link with pings, the stall limit on one without. Null while not waiting, or when never.
   */
  get giveUpAt(): number | null {
    if (this.awaitingSince === null) return null;
    const limit = this.transport?.hasPings ? DEAD_AFTER_MS : this.stallLimitMs;
    return limit === null ? null : this.awaitingSince + limit;
  }

  call<M extends RequestMethod>(
    method: M,
    params: ParamsOf<M>,
    options: { timeoutMs?: number } = {},
  ): Promise<ResultOf<M>> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (this.queued.length >= MAX_QUEUED_CALLS) {
      return Promise.reject(
        new ClientError(
          'tooManyPendingCalls',
          `${MAX_PENDING_CALLS + MAX_QUEUED_CALLS} calls are already waiting for the server; ${method} was not sent. Try again shortly.`,
        ),
      );
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    return new Promise<ResultOf<M>>((resolve, reject) => {
      // The timeout runs from the moment the call is on the wire, not while it waits for a slot.
      const send = (): void => {
        const id = this.nextId++;
        const timer = setTimeout(() => {
          this.pending.delete(id);
          this.recentlyTimedOut.add(id);
          if (this.recentlyTimedOut.size > RECENTLY_TIMED_OUT_LIMIT) {
            this.recentlyTimedOut.delete(this.recentlyTimedOut.values().next().value as number);
          }
          reject(
            new ClientError('timeout', `${method} got no answer from the server within ${timeoutMs} ms.`),
          );
          this.sendQueued();
        }, timeoutMs);
        this.pending.set(id, { method, resolve: resolve as (r: unknown) => void, reject, timer });
        try {
          this.send({ id, method, params });
        } catch (error) {
          // A transport that cannot send is dead: end the connection so its owner notices at once.
          this.close(error instanceof ClientError ? error : new ClientError('disconnected', String(error)));
        }
      };
      if (this.pending.size < MAX_PENDING_CALLS) send();
      else this.queued.push({ send, reject });
    });
  }

  /** Puts queued calls on the wire while slots are free. */
  private sendQueued(): void {
    while (!this.closedWith && this.pending.size < MAX_PENDING_CALLS && this.queued.length > 0) {
      this.queued.shift()!.send();
    }
  }

  notify(method: string, params: unknown): void {
    if (this.closedWith) return;
    try {
      this.send({ method, params });
    } catch {
      // The transport just died; its close handler reports that.
    }
  }

  /** Routes this process's notifications to `sink`, delivering any that arrived before. */
  route(processId: string, sink: ProcessEventSink): void {
    this.router.route(processId, sink);
  }

  unroute(processId: string): void {
    this.router.unroute(processId);
  }

  /** Ends the connection; pending calls fail with `error`. Idempotent. */
  close(error: ClientError = new ClientError('closed', 'The connection was closed.')): void {
    this.transport?.close();
    this.shutdown(error);
  }

  /** Byte fields (Uint8Arrays) go raw in a data frame where agreed, else as base64 in JSON. */
  private send(message: object): void {
    if (!this.transport) throw new ClientError('disconnected', 'The connection is not open.');
    if (this.binaryFrames) {
      // One walk: without byte fields the header text is the very JSON text to send.
      const { text, payloads } = stringifyWithPayloads(message);
      if (payloads.length > 0) this.transport.sendDataFrame!(writeDataFrame(text, payloads));
      else this.transport.send(text);
    } else {
      this.transport.send(stringifyWithBytes(message, toBase64));
    }
    this.awaitingSince ??= Date.now();
  }

  private shutdown(error: ClientError): void {
    if (this.closedWith) return;
    this.closedWith = error;
    clearInterval(this.ticker);
    this.transport?.close();
    for (const call of this.pending.values()) {
      clearTimeout(call.timer);
      call.reject(error);
    }
    this.pending.clear();
    for (const call of this.queued.splice(0)) call.reject(error);
    this.router.clearUnrouted();
    this.events.onClose(error);
  }

  private handleActivity(): void {
    const now = Date.now();
    if (this.stallReported) {
      this.stallReported = false;
      this.events.onStallChange?.(false, now - (this.awaitingSince ?? now));
    }
    this.lastInboundAt = now;
    this.awaitingSince = null;
  }

  private tick(): void {
    const now = Date.now();
    if (this.transport?.hasPings) {
      if (now - this.lastInboundAt >= IDLE_PING_AFTER_MS && now - this.lastPingAt >= IDLE_PING_AFTER_MS) {
        this.lastPingAt = now;
        this.transport.ping();
        this.awaitingSince ??= now;
      }
    }
    const giveUpAt = this.giveUpAt;
    if (giveUpAt !== null && now > giveUpAt) {
      const silentS = Math.round((now - this.lastInboundAt) / 1000);
      // Only transports with pings can tell a busy peer from a dead one; others are given up as stalled.
      this.close(
        new ClientError(
          'disconnected',
          this.transport?.hasPings
            ? `No data from ${this.description} for ${silentS} s while waiting for an answer; the link is considered dead.`
            : `No reply from ${this.description} for ${silentS} s; the stalled link is given up for a new one.`,
        ),
      );
      return;
    }
    const stalled = this.stalled;
    if (stalled !== this.stallReported) {
      this.stallReported = stalled;
      this.events.onStallChange?.(stalled, now - (this.awaitingSince ?? now));
    }
    this.router.expire(now);
  }

  private reportProtocolError(message: string): void {
    this.lastProtocolError = message;
    this.events.onProtocolError?.(message);
  }

  private handleMessage(frame: Buffer | string, binary: boolean): void {
    let message: unknown;
    if (binary && typeof frame !== 'string' && isDataFrame(frame)) {
      if (!this.binaryFrames) {
        this.reportProtocolError(
          'The server sent a binary data frame although this connection did not agree to them in initialize.',
        );
        return;
      }
      const parsed = parseDataFrame(frame);
      if (!parsed.ok) {
        this.reportProtocolError(`The server sent a malformed binary data frame: ${parsed.reason}.`);
        return;
      }
      message = parsed.value;
    } else {
      try {
        message = parseFrame(frame);
      } catch {
        this.reportProtocolError(`The server sent something that is not JSON: ${snippet(frameText(frame))}`);
        return;
      }
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) {
      this.reportProtocolError(
        `The server sent a message that is not a JSON-RPC object: ${snippet(frameText(frame))}`,
      );
      return;
    }
    const m = message as Record<string, unknown>;
    if (typeof m.method === 'string') {
      if (m.id !== undefined) this.refuseServerRequest(m.id, m.method);
      else this.handleNotification(m.method, m.params);
      return;
    }
    if (m.id !== undefined && ('result' in m || 'error' in m)) {
      this.handleResponse(m.id, m);
      return;
    }
    this.reportProtocolError(
      `The server sent a message that is neither a response nor a notification: ${snippet(frameText(frame))}`,
    );
  }

  private refuseServerRequest(id: unknown, method: string): void {
    this.notifyRaw({
      id,
      error: { code: ErrorCode.methodNotFound, message: `the Tether client does not handle ${method}` },
    });
  }

  private notifyRaw(message: object): void {
    try {
      this.transport?.send(JSON.stringify(message));
    } catch {
      // Reported by the transport's close handler.
    }
  }

  private handleResponse(id: unknown, m: Record<string, unknown>): void {
    const call = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (!call) {
      if (typeof id === 'number' && this.recentlyTimedOut.delete(id)) return;
      const error = m.error as { message?: unknown } | undefined;
      if (id === UNDECODABLE_MESSAGE_ID && error) {
        this.reportProtocolError(`The server could not decode a message we sent: ${String(error.message)}`);
      } else {
        this.reportProtocolError(`The server answered an id we never used (${JSON.stringify(id)}).`);
      }
      return;
    }
    this.pending.delete(id as number);
    clearTimeout(call.timer);
    this.sendQueued();
    if ('error' in m) {
      const error = m.error as { code?: unknown; message?: unknown; data?: unknown };
      if (error === null || typeof error !== 'object' || typeof error.code !== 'number') {
        call.reject(new ClientError('protocol', `The server sent a malformed error for ${call.method}.`));
        return;
      }
      call.reject(
        rpcError(call.method, { code: error.code, message: String(error.message), data: error.data }),
      );
      return;
    }
    const parsed = MethodTable[call.method].result.safeParse(m.result);
    if (!parsed.success) {
      call.reject(
        new ClientError(
          'protocol',
          `The server's ${call.method} result does not match the protocol: ${describeSchemaError(parsed.error, m.result)}.`,
        ),
      );
      return;
    }
    if (call.method === Method.initialize) this.adoptFrameMode(parsed.data as InitializeResult);
    call.resolve(parsed.data);
  }

  /** The server agreed to binary data frames: they may follow its initialize result at once. */
  private adoptFrameMode(result: InitializeResult): void {
    this.binaryFrames = result.tetherBinaryFrames === true && this.canCarryBinaryFrames;
  }

  private handleNotification(method: string, params: unknown): void {
    let event: WireProcessEvent;
    let processId: string;
    if (method === Notification.processOutput) {
      const p = ProcessOutputNotification.safeParse(params);
      if (!p.success) return this.reportBadNotification(method, p.error, params);
      ({ processId } = p.data);
      event = { kind: 'output', seq: p.data.seq, stream: p.data.stream, chunk: p.data.chunk };
    } else if (method === Notification.processExited) {
      const p = ProcessExitedNotification.safeParse(params);
      if (!p.success) return this.reportBadNotification(method, p.error, params);
      ({ processId } = p.data);
      event = { kind: 'exited', seq: p.data.seq, exitCode: p.data.exitCode };
    } else if (method === Notification.processClosed) {
      const p = ProcessClosedNotification.safeParse(params);
      if (!p.success) return this.reportBadNotification(method, p.error, params);
      ({ processId } = p.data);
      event = { kind: 'closed', seq: p.data.seq };
    } else {
      this.events.onNotification?.(method, params);
      return;
    }
    this.router.deliver(processId, event);
  }

  private reportBadNotification(method: string, error: ZodError, params: unknown): void {
    this.reportProtocolError(`The server sent a malformed ${method}: ${describeSchemaError(error, params)}.`);
  }
}
