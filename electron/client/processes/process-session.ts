// ProcessSession: one started process, surviving connection replacement. Owns the ordering: the
// reorder buffer (events released strictly in seq order, each once), the pre-subscribe buffer for
// events nobody listened to yet (event-log.ts), and flow-control acknowledgements. Catch-up reads after a reconnect or overflow
// (with visible gap events) are catch-up.ts; the ordered write pipeline is process-writes.ts.
import {
  ExtendedSignal,
  Method,
  Notification,
  TetherCapability,
  type ParamsOf,
  type ProcessSignalName,
  type RequestMethod,
  type ResultOf,
  type TerminalSize,
  type WriteStatus,
} from '../../../shared/protocol';
import type { ProcessEvent, ProcessHandle } from '../api';
import { ClientError } from '../client-error';
import { AckPacer } from './ack-pacer';
import { CatchUp } from './catch-up';
import { REORDER_MAX_BYTES, REORDER_MAX_EVENTS } from '../constants';
import type { WireProcessEvent } from '../link/connection';
import { EventLog, type EventLogLimits } from './event-log';
import { wireBytesToBuffer } from '../link/message-decoder';
import { WritePipeline } from './process-writes';
import { ReorderBuffer, type ReorderEntry, type ReorderLimits } from './reorder-buffer';
import type { RetainedOutputBudget } from './retained-budget';
import { errorMessage } from '../../../shared/error-message';

/** What a ProcessSession needs from its client; the client owns connections and retries. */
export interface ProcessSessionOps {
  /** Sent once on a usable connection; fails with 'disconnected' if the link drops meanwhile. */
  callOnce<M extends RequestMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  /** Idempotent calls: resent after a reconnect until they get an answer or the client fails. */
  callRetrying<M extends RequestMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  /** A notification on the current connection, if there is one. */
  notify(method: string, params: unknown): void;
  hasCapability(name: string): boolean;
  /** The process is finished or disposed: stop routing its notifications. */
  forget(processId: string): void;
}

export interface ProcessSessionOptions {
  processId: string;
  retained: EventLogLimits;
  /** The client-wide bound on retained output this process also counts against. */
  budget?: RetainedOutputBudget;
  reorder?: ReorderLimits;
  /** Output window was requested and the server supports flow control. */
  flowControl: boolean;
  /** The window requested, when known; it sets how often acknowledgements go (AckPacer). */
  outputWindowBytes?: number;
  /**
   * Set when following a process an earlier client started (attachProcess): events after this seq
   * are delivered. The bytes that client consumed are unknown here, so acknowledgements cannot be
   * counted from the process's first byte: each one tells the server that everything it has
   * produced so far was consumed (it clamps the ack to that), which keeps the window bounded.
   */
  afterSeq?: number;
  /** Started under a terminal: input can be ended with its EOF character. */
  tty: boolean;
}

/** Spare bytes a chunk's memory may hold beyond the chunk before it is copied out (see ownedBytes). */
const SHARED_MEMORY_SLACK = 256;

/**
 * The chunk in memory of its own. A chunk is often a view into a larger buffer (a frame holding
 * several notifications, a pooled 8 KiB slab for a small base64 decode); whoever retains the event
 * would pin all of it, and Electron's structured clone would copy all of it to the renderer.
 */
function ownedBytes(chunk: Buffer): Buffer {
  if (chunk.buffer.byteLength - chunk.byteLength <= Math.max(SHARED_MEMORY_SLACK, chunk.byteLength >> 4))
    return chunk;
  const copy = Buffer.allocUnsafeSlow(chunk.byteLength);
  chunk.copy(copy);
  return copy;
}

/** An ack the server clamps to the bytes it has produced: "all of it". */
const ACK_ALL_PRODUCED = Number.MAX_SAFE_INTEGER;

type Listener = (event: ProcessEvent) => void;

export class ProcessSession implements ProcessHandle {
  readonly processId: string;
  pid: number | null = null;
  lastDeliveredSeq = 0;
  exitCode: number | null = null;
  closed = false;
  failure: string | null = null;
  private disposed = false;
  private readonly buffer: ReorderBuffer;
  private readonly log: EventLog;
  private readonly listeners = new Set<Listener>();
  private readonly catchUp: CatchUp;
  private readonly writes: WritePipeline;
  private readonly acks: AckPacer;

  constructor(
    private readonly ops: ProcessSessionOps,
    private readonly options: ProcessSessionOptions,
  ) {
    this.processId = options.processId;
    this.lastDeliveredSeq = options.afterSeq ?? 0;
    this.buffer = new ReorderBuffer(
      options.reorder ?? { maxEvents: REORDER_MAX_EVENTS, maxBytes: REORDER_MAX_BYTES },
    );
    this.log = new EventLog(options.retained, options.budget ?? null);
    this.catchUp = new CatchUp({
      processId: this.processId,
      buffer: this.buffer,
      read: (params) => ops.callRetrying(Method.processRead, params),
      lastDeliveredSeq: () => this.lastDeliveredSeq,
      exitDelivered: () => this.exitCode !== null,
      finished: () => this.finished,
      drain: () => this.drain(),
      fail: (message) => this.fail(message),
    });
    this.writes = new WritePipeline(this.processId, ops, options.tty);
    this.acks = new AckPacer(options.outputWindowBytes ?? null, (consumed) => this.sendAck(consumed));
  }

  /** No more events will be delivered. */
  get finished(): boolean {
    return this.closed || this.failure !== null || this.disposed;
  }

  /** Called once process/start succeeded; runs a catch-up that was requested meanwhile. */
  markStarted(pid: number | null): void {
    this.pid = pid;
    this.catchUp.markStarted();
  }

  /** A notification from the connection. Safe to call with duplicates, stale or early seqs. */
  readonly accept = (event: WireProcessEvent): void => {
    if (this.finished || event.seq <= this.lastDeliveredSeq || this.buffer.has(event.seq)) return;
    if (event.seq === this.lastDeliveredSeq + 1) {
      this.buffer.add(event, true);
      this.drain();
    } else if (!this.buffer.add(event)) {
      // Overflow: drop it and fetch everything missing with process/read instead of failing.
      this.catchUp.request();
    }
  };

  /** The link was replaced: fetch what was missed (process/read from the last delivered seq). */
  resync(): void {
    if (this.finished) return;
    this.acks.resend();
    this.catchUp.request();
  }

  /** Terminal failure: subscribers get one `failed` event; nothing follows it. */
  fail(message: string): void {
    if (this.finished) return;
    this.failure = message;
    this.buffer.clear();
    this.emit({ kind: 'failed', message });
    this.ops.forget(this.processId);
    this.writes.rejectQueued(new ClientError('disconnected', message));
  }

  subscribe(listener: Listener, options: { afterSeq?: number } = {}): () => void {
    for (const event of this.log.replay(options.afterSeq)) this.safeCall(listener, event);
    // The subscriber keeps what it was given; holding it here too would keep the bytes twice.
    this.log.handOver();
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  write(data: Uint8Array | string): Promise<WriteStatus> {
    if (this.disposed)
      return Promise.reject(new ClientError('closed', `Process ${this.processId} was disposed.`));
    if (this.failure !== null) return Promise.reject(new ClientError('disconnected', this.failure));
    return this.writes.write(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  }

  closeStdin(): Promise<WriteStatus> {
    if (this.disposed)
      return Promise.reject(new ClientError('closed', `Process ${this.processId} was disposed.`));
    if (this.failure !== null) return Promise.reject(new ClientError('disconnected', this.failure));
    return this.writes.closeStdin();
  }

  async signal(signal: ProcessSignalName): Promise<void> {
    if (!ExtendedSignal.options.includes(signal)) {
      throw new ClientError('invalidArgument', `Unknown signal "${String(signal)}".`);
    }
    if (signal === 'interrupt' || this.ops.hasCapability(TetherCapability.extendedSignals)) {
      await this.ops.callOnce(Method.processSignal, { processId: this.processId, signal });
      return;
    }
    if (signal === 'terminate' || signal === 'kill') {
      await this.terminate();
      return;
    }
    throw new ClientError(
      'unsupported',
      `This server only supports the interrupt signal (and terminate); it cannot send "${signal}".`,
    );
  }

  terminate(): Promise<{ running: boolean }> {
    return this.ops.callRetrying(Method.processTerminate, { processId: this.processId });
  }

  async resize(size: TerminalSize): Promise<void> {
    if (!this.ops.hasCapability(TetherCapability.processResize)) {
      throw new ClientError('unsupported', 'This server cannot resize terminals (no process/resize).');
    }
    await this.ops.callRetrying(Method.processResize, { processId: this.processId, ...size });
  }

  acknowledge(consumedBytes: number): void {
    if (this.options.flowControl) this.acks.consumedTo(consumedBytes);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.buffer.clear();
    this.log.clear();
    this.listeners.clear();
    this.ops.forget(this.processId);
    this.writes.rejectQueued(new ClientError('closed', `Process ${this.processId} was disposed.`));
  }

  private sendAck(consumed: number): void {
    if (this.finished) return;
    const consumedBytes = this.options.afterSeq === undefined ? consumed : ACK_ALL_PRODUCED;
    this.ops.notify(Notification.processAck, { processId: this.processId, consumedBytes });
  }

  private drain(): void {
    let entry = this.buffer.take(this.lastDeliveredSeq + 1);
    while (entry && !this.finished) {
      this.deliver(entry);
      entry = this.buffer.take(this.lastDeliveredSeq + 1);
    }
  }

  private deliver(entry: ReorderEntry): void {
    switch (entry.kind) {
      case 'output':
        this.lastDeliveredSeq = entry.seq;
        this.emit({
          kind: 'output',
          seq: entry.seq,
          stream: entry.stream,
          data: ownedBytes(wireBytesToBuffer(entry.chunk)),
        });
        break;
      case 'exited':
        this.lastDeliveredSeq = entry.seq;
        this.exitCode = entry.exitCode;
        this.emit({ kind: 'exited', seq: entry.seq, exitCode: entry.exitCode });
        break;
      case 'gap':
        this.lastDeliveredSeq = entry.toSeq;
        this.emit({ kind: 'gap', fromSeq: entry.fromSeq, toSeq: entry.toSeq, at: Date.now() });
        break;
      case 'closed':
        this.lastDeliveredSeq = entry.seq;
        this.closed = true;
        this.buffer.clear();
        this.emit({ kind: 'closed', seq: entry.seq });
        this.ops.forget(this.processId);
        break;
    }
  }

  private emit(event: ProcessEvent): void {
    if (this.listeners.size === 0) this.log.append(event);
    else this.log.passOver(event);
    for (const listener of [...this.listeners]) this.safeCall(listener, event);
  }

  private safeCall(listener: Listener, event: ProcessEvent): void {
    try {
      listener(event);
    } catch (error) {
      // A broken subscriber must not stop delivery to the others.
      process.emitWarning(`A process event listener threw: ${errorMessage(error)}`);
    }
  }
}
