// One client connection (a WebSocket, the stdio pair or a unix socket): decodes messages, enforces codex's
// handshake order and protocol-violation rules, runs requests concurrently (bounded, queued
// beyond the bound), and is the sink of its session's notifications with outbound backpressure.
// It also holds whether binary data frames were negotiated, which decides how its messages travel.
import type { InitializeParams } from '../../../shared/protocol';
import {
  ErrorCode,
  Method,
  MethodTable,
  Notification,
  ProcessAckParams,
  describeSchemaError,
  isDataFrame,
  isServedMethod,
  type EnvironmentInfo,
  type ServedMethod,
} from '../../../shared/protocol';
import { decodeBytes, decodeDataFrame, encodeError, type DecodedMessage } from './envelope';
import { FileHandles } from '../fs/file-handles';
import {
  ATTACHED_PROBE_TIMEOUT_MS,
  OUTBOUND_HIGH_WATERMARK_BYTES,
  OUTBOUND_LOW_WATERMARK_BYTES,
  STREAM_OUTBOUND_YIELD_BYTES,
} from '../limits';
import type { Logger } from '../logger';
import { dropOutbound, toWire, type OutboundMessage } from './outbound';
import { methodFamily, requestHandlers, type RequestContext } from './request-handlers';
import { isStreamNotification, StreamTable } from '../streams/stream-table';
import { RpcError } from './rpc-error';
import type { Session, SessionRegistry, SessionSink } from '../processes/session';
import { errorMessage } from '../../../shared/error-message';
import type { Principal } from '../listeners/principal';

/** The byte pipe under a connection. */
export interface Transport {
  /** Start of the -32600 message sent for undecodable input. */
  readonly parseErrorPrefix: string;
  /** One JSON message; Buffers hold UTF-8 JSON text and go back to the message pool once written. */
  send(message: string | Buffer): void;
  /**
   * One binary data frame (pooled Buffers go back once written). Only transports that can carry
   * them have it (WebSocket, and byte streams once framed); without it `tetherBinaryFrames` is
   * never agreed.
   */
  sendDataFrame?(frame: Buffer): void;
  /**
   * `tetherBinaryFrames` was just agreed, and the initialize result sent: a byte stream frames
   * every message from here on, both ways (stream-transport.ts). WebSocket messages need nothing.
   */
  useFrames?(): void;
  /** Outbound bytes queued and not yet handed to the OS. */
  bufferedBytes(): number;
  /** Calls `callback` once when the outbound queue next drains. */
  onceDrain(callback: () => void): void;
  /** Stops (true) or resumes (false) reading inbound messages; the peer's sends then back up. */
  pauseInbound(paused: boolean): void;
  /** Drops the connection at once (protocol violation). */
  terminate(): void;
  /** Resolves true if the peer shows it is alive within `timeoutMs`. */
  probeAlive(timeoutMs: number): Promise<boolean>;
  /**
   * Resolves true if the client behind the peer is there to read (reaping waits for it); without
   * it, probeAlive answers. They differ where the peer is a relay (the daemon's bridge).
   */
  probeReading?(timeoutMs: number): Promise<boolean>;
}

export interface ConnectionDeps {
  registry: SessionRegistry;
  environmentInfo: EnvironmentInfo;
  logger: Logger;
  maxInFlightRequests: number;
  /** Requests waiting for a slot; beyond this many they are refused. */
  maxQueuedRequests: number;
  /** `fs/open` handles open at once. */
  maxOpenFiles: number;
}

interface PendingRequest {
  idJson: string;
  method: Exclude<ServedMethod, 'initialize'>;
  params: unknown;
}

const UNDECODABLE_ID_JSON = '-1';

export class Connection implements SessionSink {
  private state: 'new' | 'initializing' | 'awaitingInitialized' | 'ready' = 'new';
  private session: Session | null = null;
  private readonly files: FileHandles;
  /** This connection's TCP streams (`tetherStreams`): they end with it. */
  private readonly streams = new StreamTable({
    notification: (method, params) => this.send({ kind: 'notification', method, params }),
    data: (streamIdJson, data) => this.send({ kind: 'streamData', streamIdJson, data }),
  });
  private readonly aborter = new AbortController();
  private readonly queue: PendingRequest[] = [];
  private inFlight = 0;
  private closed = false;
  /** `tetherBinaryFrames` agreed in initialize: byte fields travel in data frames both ways. */
  private binaryFrames = false;
  congested = false;
  /** Stream sockets are not read while this much is queued out, so terminals never wait long behind them. */
  private streamsYielding = false;

  /** `principal`: who the connection's credential stands for (listeners/principal.ts). */
  constructor(
    private readonly transport: Transport,
    private readonly deps: ConnectionDeps,
    private readonly principal: Principal,
  ) {
    this.files = new FileHandles(deps.maxOpenFiles);
  }

  send(message: OutboundMessage): void {
    if (this.closed) {
      dropOutbound(message);
      return;
    }
    const wire = toWire(message, this.binaryFrames);
    if ('text' in wire) this.transport.send(wire.text);
    else this.transport.sendDataFrame!(wire.dataFrame);
    if (!this.streamsYielding && this.transport.bufferedBytes() > STREAM_OUTBOUND_YIELD_BYTES) {
      // TCP streams take what the link has to spare: the queue ahead of the next process output
      // stays about this long however many streams are busy (the kernel's socket buffer keeps the
      // link busy meanwhile). Read on once it has drained.
      this.streamsYielding = true;
      this.updateStreamsBlocked();
      this.transport.onceDrain(() => {
        this.streamsYielding = false;
        if (!this.closed) this.updateStreamsBlocked();
      });
    }
    if (!this.congested && this.transport.bufferedBytes() > OUTBOUND_HIGH_WATERMARK_BYTES) {
      // A peer that does not read must not make us buffer without bound: no more process output,
      // no new requests started, and none read, until it has taken most of what is queued.
      this.congested = true;
      this.session?.setCongested(true);
      this.updateStreamsBlocked();
      this.transport.pauseInbound(true);
      this.waitForDrain();
    }
  }

  private updateStreamsBlocked(): void {
    this.streams.setBlocked(this.congested || this.streamsYielding);
  }

  private waitForDrain(): void {
    this.transport.onceDrain(() => {
      if (this.closed) return;
      if (this.transport.bufferedBytes() > OUTBOUND_LOW_WATERMARK_BYTES) {
        this.waitForDrain();
        return;
      }
      this.congested = false;
      this.session?.setCongested(false);
      this.updateStreamsBlocked();
      this.transport.pauseInbound(false);
      this.pump();
    });
  }

  /**
   * One inbound WebSocket message: a binary one may be a data frame (once they are negotiated);
   * anything else is JSON text, which codex also accepts in binary messages.
   */
  handleBytes(bytes: Buffer, binary: boolean): void {
    if (!binary || !isDataFrame(bytes)) {
      this.handleMessage(decodeBytes(bytes));
      return;
    }
    if (this.binaryFrames) {
      this.handleMessage(decodeDataFrame(bytes));
      return;
    }
    this.handleMessage({
      kind: 'invalid',
      reason:
        'binary data frame received, but this connection did not negotiate tetherBinaryFrames in initialize',
    });
  }

  handleMessage(message: DecodedMessage): void {
    if (this.closed) return;
    try {
      switch (message.kind) {
        case 'invalid':
          this.send(
            encodeError(
              message.idJson ?? UNDECODABLE_ID_JSON,
              ErrorCode.invalidRequest,
              `${this.transport.parseErrorPrefix}: ${message.reason}`,
            ),
          );
          return;
        case 'response':
          this.violation('client sent a JSON-RPC response');
          return;
        case 'notification':
          this.handleNotification(message.method, message.params);
          return;
        case 'request':
          this.handleRequest(message.idJson, message.method, message.params);
          return;
      }
    } catch (error) {
      this.deps.logger.error(`unexpected error handling a message: ${(error as Error).stack ?? error}`);
    }
  }

  handleClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.aborter.abort();
    this.files.closeAll();
    this.streams.closeAll();
    this.queue.length = 0;
    this.session?.detach(this);
  }

  probeAlive(timeoutMs: number): Promise<boolean> {
    return this.closed ? Promise.resolve(false) : this.transport.probeAlive(timeoutMs);
  }

  probeReading(timeoutMs: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return this.transport.probeReading?.(timeoutMs) ?? this.transport.probeAlive(timeoutMs);
  }

  /**
   * The byte stream under this connection lost its message boundaries (garbage where a frame
   * must begin, a length above the bound): nothing after can be read, so the peer is told why and
   * the connection ends.
   */
  streamBroken(reason: string): void {
    if (this.closed) return;
    this.send(
      encodeError(
        UNDECODABLE_ID_JSON,
        ErrorCode.invalidRequest,
        `${this.transport.parseErrorPrefix}: ${reason}`,
      ),
    );
    this.violation(`the stream broke its framing: ${reason}`);
  }

  /** Drops this connection because another one is taking its session over. */
  evict(reason: string): void {
    this.violation(reason);
  }

  private violation(reason: string): void {
    this.deps.logger.info(`dropping connection: ${reason}`);
    this.handleClose();
    this.transport.terminate();
  }

  private handleNotification(method: string, params: unknown): void {
    if (method === Notification.initialized) {
      if (this.state === 'new' || this.state === 'initializing')
        this.violation('initialized sent before initialize');
      else this.state = 'ready';
      return;
    }
    if (method === Notification.processAck && this.state !== 'new') {
      const parsed = ProcessAckParams.safeParse(params);
      if (parsed.success) this.session?.findOwn(parsed.data.processId)?.ack(parsed.data.consumedBytes);
      return;
    }
    if (isStreamNotification(method) && this.state === 'ready') {
      this.streams.handle(method, params);
      return;
    }
    this.violation(`unexpected notification ${method}`);
  }

  private handleRequest(idJson: string, method: string, rawParams: unknown): void {
    if (!isServedMethod(method)) {
      this.send(
        encodeError(
          idJson,
          ErrorCode.methodNotFound,
          `exec-server stub does not implement \`${method}\` yet`,
        ),
      );
      return;
    }
    const parsed = MethodTable[method].params.safeParse(rawParams);
    if (!parsed.success) {
      this.send(encodeError(idJson, ErrorCode.invalidParams, describeSchemaError(parsed.error, rawParams)));
      return;
    }
    if (method === Method.initialize) {
      void this.initialize(idJson, parsed.data as InitializeParams);
      return;
    }
    if (this.state !== 'ready') {
      const verb = this.state === 'new' ? 'call initialize' : 'send initialized';
      this.send(
        encodeError(
          idJson,
          ErrorCode.invalidRequest,
          `client must ${verb} before using ${methodFamily(method)} methods`,
        ),
      );
      return;
    }
    if (this.queue.length >= this.deps.maxQueuedRequests) {
      const max = this.deps.maxQueuedRequests;
      const error = RpcError.limitExceeded(
        'queuedRequests',
        max,
        `${max} requests are already waiting on this connection (the limit, --max-queued-requests); ` +
          'wait for answers before sending more',
      );
      this.send(encodeError(idJson, error.code, error.message, error.data));
      return;
    }
    this.queue.push({ idJson, method, params: parsed.data });
    this.pump();
  }

  private async initialize(idJson: string, params: InitializeParams): Promise<void> {
    if (this.state !== 'new') {
      const message =
        this.state === 'initializing'
          ? 'initialize is already in progress on this connection'
          : 'initialize may only be sent once per connection';
      this.send(encodeError(idJson, ErrorCode.invalidRequest, message));
      return;
    }
    let session: Session;
    const resumeId = params.resumeSessionId;
    if (resumeId !== undefined && resumeId !== null) {
      const found = this.deps.registry.get(resumeId, this.principal);
      if (!found) {
        this.send(encodeError(idJson, ErrorCode.invalidRequest, `unknown session id ${resumeId}`));
        return;
      }
      if (found.isAttached) {
        this.state = 'initializing';
        const freed = await found.releaseIfUnresponsive(ATTACHED_PROBE_TIMEOUT_MS);
        this.state = 'new';
        if (this.closed) return;
        if (!freed || found.isAttached) {
          this.send(
            encodeError(
              idJson,
              ErrorCode.alreadyAttached,
              `session ${resumeId} is already attached to another connection`,
            ),
          );
          return;
        }
      }
      session = found;
    } else {
      try {
        session = this.deps.registry.create(this.principal);
      } catch (error) {
        if (!(error instanceof RpcError)) throw error;
        this.send(encodeError(idJson, error.code, error.message, error.data));
        return;
      }
    }
    this.state = 'awaitingInitialized';
    this.session = session;
    session.clientName = params.clientName;
    // The result itself is JSON text; binary frames may follow it at once, in both directions.
    const binaryFrames = params.tetherBinaryFrames === true && this.transport.sendDataFrame !== undefined;
    const result = { sessionId: session.id, environmentInfo: this.deps.environmentInfo };
    this.send({
      kind: 'result',
      idJson,
      result: binaryFrames ? { ...result, tetherBinaryFrames: true } : result,
    });
    this.binaryFrames = binaryFrames;
    if (binaryFrames) this.transport.useFrames?.();
    session.attach(this);
    this.deps.logger.debug(
      `${resumeId ? 'resumed' : 'created'} session ${session.id} for ${params.clientName}`,
    );
  }

  private pump(): void {
    while (!this.congested && this.inFlight < this.deps.maxInFlightRequests && this.queue.length > 0) {
      const request = this.queue.shift()!;
      this.inFlight++;
      void this.run(request).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async run(request: PendingRequest): Promise<void> {
    if (this.session?.ended) {
      this.send(
        encodeError(request.idJson, ErrorCode.invalidRequest, `session ${this.session.id} has ended`),
      );
      return;
    }
    const ctx: RequestContext = {
      session: this.session!,
      registry: this.deps.registry,
      principal: this.principal,
      files: this.files,
      streams: this.streams,
      environmentInfo: this.deps.environmentInfo,
      signal: this.aborter.signal,
    };
    const handler = requestHandlers[request.method] as (params: unknown, ctx: RequestContext) => unknown;
    try {
      const result = await handler(request.params, ctx);
      this.send({ kind: 'result', idJson: request.idJson, result });
    } catch (error) {
      if (error instanceof RpcError) {
        this.send(encodeError(request.idJson, error.code, error.message, error.data));
      } else {
        this.deps.logger.error(`${request.method} failed: ${(error as Error).stack ?? error}`);
        this.send(encodeError(request.idJson, ErrorCode.internal, errorMessage(error)));
      }
    }
  }
}
