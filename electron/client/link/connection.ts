// ExecServerConnection: one live JSON-RPC binding over one transport. Owns the pending calls (their
// ids, timeouts, cap and response validation, through PendingCalls), notification routing by
// processId (through a NotificationRouter), liveness (keepalive pings, stalls, a silent peer
// declared dead, through Liveness) and the disconnect latch. Never reconnects.
// It also holds whether binary data frames were agreed in initialize, which decides how byte
// fields travel: raw in data frames, or as base64 in JSON text.
import {
  describeSchemaError,
  ErrorCode,
  isDataFrame,
  Method,
  stringifyWithBytes,
  stringifyWithPayloads,
  UNDECODABLE_MESSAGE_ID,
  type InitializeResult,
  type ParamsOf,
  type RequestMethod,
  type ResultOf,
  writeDataFrame,
} from '../../../shared/protocol';
import { ClientError } from '../client-error';
import { errorMessage } from '../../../shared/error-message';
import { DEFAULT_CALL_TIMEOUT_MS, LIVENESS_TICK_MS, MAX_PROTOCOL_ERRORS } from '../constants';
import { Liveness } from './liveness';
import { acquireFrame, releaseFrame } from './frame-pool';
import { frameText, JsonLimitError, parseDataFrame, parseFrame } from './message-decoder';
import { NotificationRouter, readProcessNotification, type ProcessEventSink } from './notification-router';
import { PendingCalls } from './pending-calls';
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

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function snippet(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

export class ExecServerConnection {
  private readonly calls = new PendingCalls(() => this.closedWith !== null);
  private readonly router = new NotificationRouter();
  private transport: Transport | null = null;
  private closedWith: ClientError | null = null;
  private readonly ticker: NodeJS.Timeout;
  private readonly liveness: Liveness;
  /** The last malformed thing the peer sent, quoted in handshake errors. */
  lastProtocolError: string | null = null;
  /** Binary data frames agreed in this connection's initialize (never before its result). */
  private binaryFrames = false;
  /** Protocol errors on this connection so far (see MAX_PROTOCOL_ERRORS). */
  private protocolErrors = 0;
  /** Set when this connection ended because the server kept breaking the protocol. */
  brokeProtocol = false;

  private constructor(
    private readonly events: ConnectionEvents,
    /** A link without pings that stays stalled this long is closed (null: never, it cannot be replaced). */
    stallLimitMs: number | null,
  ) {
    this.liveness = new Liveness(stallLimitMs, (stalled, silentMs) =>
      this.events.onStallChange?.(stalled, silentMs),
    );
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
      onMessage: (message, binary) => connection.receive(message, binary === true),
      onActivity: () => connection.liveness.heard(),
      onClose: (error) => connection.shutdown(error),
      onBroken: (reason) => connection.streamBroken(reason),
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

  /** Whether the server agreed to binary data frames on this connection. */
  get binaryFramesAgreed(): boolean {
    return this.binaryFrames;
  }

  /** Whether this link could carry binary data frames, i.e. whether to ask for them. */
  get canCarryBinaryFrames(): boolean {
    return this.transport?.sendDataFrame !== undefined;
  }

  /** Epoch ms of the last inbound byte. */
  get lastInboundAt(): number {
    return this.liveness.lastInboundAt;
  }

  /** True while we wait for the peer and it has been silent for longer than STALLED_AFTER_MS. */
  get stalled(): boolean {
    return this.liveness.stalled;
  }

  /** When this connection closes itself if the peer stays silent (Liveness.giveUpAt). */
  get giveUpAt(): number | null {
    return this.liveness.giveUpAt(this.transport);
  }

  call<M extends RequestMethod>(
    method: M,
    params: ParamsOf<M>,
    options: { timeoutMs?: number } = {},
  ): Promise<ResultOf<M>> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    return this.calls.start(method, options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS, (id) => {
      try {
        this.send({ id, method, params });
      } catch (error) {
        // A transport that cannot send is dead: end the connection so its owner notices at once.
        this.close(error instanceof ClientError ? error : new ClientError('disconnected', String(error)));
      }
    });
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
      if (payloads.length > 0) {
        const frame = writeDataFrame(text, payloads, acquireFrame);
        this.transport.sendDataFrame!(frame, () => releaseFrame(frame));
      } else this.transport.send(text);
    } else {
      this.transport.send(stringifyWithBytes(message, toBase64));
    }
    this.liveness.sent();
  }

  private shutdown(error: ClientError): void {
    if (this.closedWith) return;
    this.closedWith = error;
    clearInterval(this.ticker);
    this.transport?.close();
    this.calls.rejectAll(error);
    this.router.clearUnrouted();
    this.events.onClose(error);
  }

  private tick(): void {
    const now = Date.now();
    const givenUp = this.liveness.tick(now, this.transport);
    if (givenUp) {
      this.close(givenUp);
      return;
    }
    this.router.expire(now);
  }

  private reportProtocolError(message: string): void {
    this.lastProtocolError = message;
    this.events.onProtocolError?.(message);
    // A few bad messages are dropped and the link keeps serving; a server that keeps sending them
    // is broken or hostile, and this connection ends with the reason rather than going on.
    if (++this.protocolErrors > MAX_PROTOCOL_ERRORS && !this.closedWith) {
      this.brokeProtocol = true;
      this.close(
        new ClientError(
          'protocol',
          `The server sent ${this.protocolErrors} malformed or unexpected messages; the last: ${message}`,
        ),
      );
    }
  }

  /**
   * Whatever a server sends must end here as a handled message or a protocol error: nothing it
   * sends may throw into the transport's event handler (which would be an uncaught exception).
   */
  private receive(frame: Buffer | string, binary: boolean): void {
    if (this.closedWith) return;
    try {
      this.handleMessage(frame, binary);
    } catch (error) {
      this.reportProtocolError(`A message from the server could not be handled: ${errorMessage(error)}`);
    }
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
      } catch (error) {
        this.reportProtocolError(
          error instanceof JsonLimitError
            ? `The server sent a message beyond the protocol's limits (${error.message}).`
            : `The server sent something that is not JSON: ${snippet(frameText(frame))}`,
        );
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
    const answered = this.calls.answer(id, m, (method, result) => {
      if (method === Method.initialize) this.adoptFrameMode(result as InitializeResult);
    });
    if (answered || this.calls.timedOutLately(id)) return;
    const error = m.error as { message?: unknown } | undefined;
    if (id === UNDECODABLE_MESSAGE_ID && error) {
      this.reportProtocolError(`The server could not decode a message we sent: ${String(error.message)}`);
    } else {
      this.reportProtocolError(`The server answered an id we never used (${JSON.stringify(id)}).`);
    }
  }

  /** The server agreed to binary data frames: they may follow its initialize result at once. */
  private adoptFrameMode(result: InitializeResult): void {
    this.binaryFrames = result.tetherBinaryFrames === true && this.canCarryBinaryFrames;
    if (this.binaryFrames) this.transport?.useFrames?.();
  }

  /** The stream under this connection lost its boundaries: a protocol error that ends it. */
  private streamBroken(reason: string): void {
    if (this.closedWith) return;
    const message = `The server broke the framing of its stream: ${reason}.`;
    this.lastProtocolError = message;
    this.events.onProtocolError?.(message);
    // A server that breaks its framing would break it again on a new link.
    this.brokeProtocol = true;
    this.close(new ClientError('protocol', message));
  }

  private handleNotification(method: string, params: unknown): void {
    const read = readProcessNotification(method, params);
    if (read === null) this.events.onNotification?.(method, params);
    else if (read.ok) this.router.deliver(read.processId, read.event);
    else {
      this.reportProtocolError(
        `The server sent a malformed ${method}: ${describeSchemaError(read.error, params)}.`,
      );
    }
  }
}
