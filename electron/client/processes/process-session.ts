// ProcessSession: one started process, surviving connection replacement. Owns the reorder buffer
// (events released strictly in seq order, each once), the retained event log for late subscribers,
// catch-up reads after a reconnect or overflow (with visible gap events), the ordered write pipeline
// with per-process writeIds, and flow-control acknowledgements.
import { randomBytes } from 'node:crypto';
import {
  ExtendedSignal,
  Method,
  Notification,
  TetherCapability,
  terminalEofBytes,
  type ParamsOf,
  type ProcessReadResult,
  type ProcessSignalName,
  type RequestMethod,
  type ResultOf,
  type TerminalSize,
  type WriteStatus,
} from '../../../shared/protocol';
import type { ProcessEvent, ProcessHandle } from '../api';
import { ClientError, isUnknownProcessError, toClientError } from '../client-error';
import { AckPacer } from './ack-pacer';
import {
  CATCH_UP_READ_MAX_BYTES,
  MAX_WRITE_BATCH_BYTES,
  REORDER_MAX_BYTES,
  REORDER_MAX_EVENTS,
} from '../constants';
import type { WireProcessEvent } from '../link/connection';
import { EventLog, type EventLogLimits } from './event-log';
import { wireBytesToBuffer } from '../link/message-decoder';
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

/** An ack the server clamps to the bytes it has produced: "all of it". */
const ACK_ALL_PRODUCED = Number.MAX_SAFE_INTEGER;

type Listener = (event: ProcessEvent) => void;

/** A piece of input, or (bytes null) the end of input, in the one ordered write pipeline. */
interface QueuedWrite {
  bytes: Uint8Array | null;
  resolve(status: WriteStatus): void;
  reject(error: unknown): void;
}

/**
 * Missing seq ranges [from, to] in (after, before) not covered by `held` (seq spans). Walks the
 * held spans, never the seqs between them: a server may claim any `nextSeq` (2^53 - 1, say), and
 * the cost must stay that of what we hold.
 */
function missingRanges(
  after: number,
  before: number,
  held: Array<[number, number]>,
): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let next = after + 1;
  for (const [from, to] of held.sort((a, b) => a[0] - b[0])) {
    if (to < next || from >= before) continue;
    if (from > next) ranges.push([next, from - 1]);
    next = Math.max(next, to + 1);
  }
  if (next < before) ranges.push([next, before - 1]);
  return ranges;
}

export class ProcessSession implements ProcessHandle {
  readonly processId: string;
  pid: number | null = null;
  lastDeliveredSeq = 0;
  exitCode: number | null = null;
  closed = false;
  failure: string | null = null;
  private disposed = false;
  /** process/start has succeeded, so process/read may be used. */
  private started = false;
  private readonly buffer: ReorderBuffer;
  private readonly log: EventLog;
  private readonly listeners = new Set<Listener>();
  private catchUp: Promise<void> | null = null;
  private catchUpAgain = false;
  private readonly writeQueue: QueuedWrite[] = [];
  private writing = false;
  /**
   * Write ids are `<prefix>-<n>`, the prefix random per ProcessSession: a server drops a write whose
   * id it has seen for the process (codex even when the bytes differ), so ids must never repeat
   * those of an earlier client (before an app restart, or another re-attach) writing to it.
   */
  private readonly writeIdPrefix = randomBytes(8).toString('hex');
  private writeCounter = 0;
  /** Last byte queued for stdin (the tty EOF fallback needs to know if a line is open). */
  private lastQueuedByte: number | null = null;
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
    this.acks = new AckPacer(options.outputWindowBytes ?? null, (consumed) => this.sendAck(consumed));
  }

  /** No more events will be delivered. */
  get finished(): boolean {
    return this.closed || this.failure !== null || this.disposed;
  }

  /** Called once process/start succeeded; runs a catch-up that was requested meanwhile. */
  markStarted(pid: number | null): void {
    this.started = true;
    this.pid = pid;
    if (this.catchUpAgain) this.requestCatchUp();
  }

  /** A notification from the connection. Safe to call with duplicates, stale or early seqs. */
  readonly accept = (event: WireProcessEvent): void => {
    if (this.finished || event.seq <= this.lastDeliveredSeq || this.buffer.has(event.seq)) return;
    if (event.seq === this.lastDeliveredSeq + 1) {
      this.buffer.add(event, true);
      this.drain();
    } else if (!this.buffer.add(event)) {
      // Overflow: drop it and fetch everything missing with process/read instead of failing.
      this.requestCatchUp();
    }
  };

  /** The link was replaced: fetch what was missed (process/read from the last delivered seq). */
  resync(): void {
    if (this.finished) return;
    this.acks.resend();
    this.requestCatchUp();
  }

  /** Terminal failure: subscribers get one `failed` event; nothing follows it. */
  fail(message: string): void {
    if (this.finished) return;
    this.failure = message;
    this.buffer.clear();
    this.emit({ kind: 'failed', message });
    this.ops.forget(this.processId);
    this.rejectQueuedWrites(new ClientError('disconnected', message));
  }

  subscribe(listener: Listener, options: { afterSeq?: number } = {}): () => void {
    for (const event of this.log.replay(options.afterSeq)) this.safeCall(listener, event);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  write(data: Uint8Array | string): Promise<WriteStatus> {
    if (this.disposed)
      return Promise.reject(new ClientError('closed', `Process ${this.processId} was disposed.`));
    if (this.failure !== null) return Promise.reject(new ClientError('disconnected', this.failure));
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    if (bytes.byteLength > 0) this.lastQueuedByte = bytes[bytes.byteLength - 1]!;
    const pieces: Array<Promise<WriteStatus>> = [];
    for (let offset = 0; offset < bytes.byteLength || offset === 0; offset += MAX_WRITE_BATCH_BYTES) {
      const piece = bytes.subarray(offset, offset + MAX_WRITE_BATCH_BYTES);
      pieces.push(new Promise((resolve, reject) => this.writeQueue.push({ bytes: piece, resolve, reject })));
      if (bytes.byteLength === 0) break;
    }
    this.pumpWrites();
    return Promise.all(pieces).then((statuses) => statuses.find((s) => s !== 'accepted') ?? 'accepted');
  }

  closeStdin(): Promise<WriteStatus> {
    if (this.disposed)
      return Promise.reject(new ClientError('closed', `Process ${this.processId} was disposed.`));
    if (this.failure !== null) return Promise.reject(new ClientError('disconnected', this.failure));
    if (!this.ops.hasCapability(TetherCapability.closeStdin)) {
      if (this.options.tty) return this.write(terminalEofBytes(this.lastQueuedByte));
      return Promise.reject(
        new ClientError(
          'unsupported',
          "This server cannot close a process's stdin (it has no process/closeStdin, and the process " +
            'has no terminal to send ^D to), so a program that reads to the end of its input keeps waiting.',
        ),
      );
    }
    const ended = new Promise<WriteStatus>((resolve, reject) =>
      this.writeQueue.push({ bytes: null, resolve, reject }),
    );
    this.pumpWrites();
    return ended;
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
    this.rejectQueuedWrites(new ClientError('closed', `Process ${this.processId} was disposed.`));
  }

  private sendAck(consumed: number): void {
    if (this.finished) return;
    const consumedBytes = this.options.afterSeq === undefined ? consumed : ACK_ALL_PRODUCED;
    this.ops.notify(Notification.processAck, { processId: this.processId, consumedBytes });
  }

  private pumpWrites(): void {
    const first = this.writeQueue[0];
    if (this.writing || first === undefined) return;
    const batch: QueuedWrite[] = [];
    let call: Promise<{ status: WriteStatus }>;
    if (first.bytes === null) {
      batch.push(this.writeQueue.shift()!);
      // The server closes at most once per process, so a retry after a reconnect is harmless.
      call = this.ops.callRetrying(Method.processCloseStdin, { processId: this.processId });
    } else {
      const pieces: Uint8Array[] = [];
      let size = 0;
      for (let next: QueuedWrite | undefined = first; next?.bytes; next = this.writeQueue[0]) {
        if (pieces.length > 0 && size + next.bytes.byteLength > MAX_WRITE_BATCH_BYTES) break;
        batch.push(this.writeQueue.shift()!);
        pieces.push(next.bytes);
        size += next.bytes.byteLength;
      }
      const chunk = Buffer.concat(pieces).toString('base64');
      const writeId = `${this.writeIdPrefix}-${++this.writeCounter}`;
      call = this.ops.callRetrying(Method.processWrite, { processId: this.processId, chunk, writeId });
    }
    this.writing = true;
    call
      .then(
        (result) => batch.forEach((w) => w.resolve(result.status)),
        (error: unknown) => batch.forEach((w) => w.reject(error)),
      )
      .finally(() => {
        this.writing = false;
        this.pumpWrites();
      });
  }

  private rejectQueuedWrites(error: ClientError): void {
    for (const w of this.writeQueue.splice(0)) w.reject(error);
  }

  private requestCatchUp(): void {
    if (this.finished) return;
    if (this.catchUp || !this.started) {
      this.catchUpAgain = true;
      return;
    }
    this.catchUp = this.runCatchUp().finally(() => {
      this.catchUp = null;
    });
  }

  private async runCatchUp(): Promise<void> {
    try {
      do {
        this.catchUpAgain = false;
        await this.readUntilCaughtUp();
      } while (this.catchUpAgain && !this.finished);
    } catch (error) {
      const err = toClientError(error);
      this.fail(
        isUnknownProcessError(err)
          ? `The server no longer knows process ${this.processId}; its output after seq ${this.lastDeliveredSeq} cannot be recovered.`
          : `Could not recover the output of process ${this.processId}: ${err.message}`,
      );
    }
  }

  /** process/read from the last delivered seq until nothing new comes back, merged into the stream. */
  private async readUntilCaughtUp(): Promise<void> {
    let afterSeq = this.lastDeliveredSeq;
    let first = true;
    while (!this.finished) {
      const result = await this.ops.callRetrying(Method.processRead, {
        processId: this.processId,
        afterSeq,
        maxBytes: CATCH_UP_READ_MAX_BYTES,
        waitMs: 0,
      });
      if (this.finished) return;
      for (const c of result.chunks) {
        if (c.seq > this.lastDeliveredSeq) this.buffer.add({ kind: 'output', ...c }, true);
        afterSeq = Math.max(afterSeq, c.seq);
      }
      const firstChunk = result.chunks[0];
      if (first && firstChunk && !result.exited) {
        // A running process has no exited/closed seq yet, so anything missing before the oldest
        // retained chunk was evicted on the server.
        this.addGaps(missingRanges(this.lastDeliveredSeq, firstChunk.seq, this.buffer.spans()));
      }
      first = false;
      this.drain();
      if (result.chunks.length === 0) {
        this.resolveEnd(result);
        this.drain();
        if (result.failure) this.fail(result.failure);
        return;
      }
    }
  }

  /**
   * The read caught up: every seq below `nextSeq` not yet delivered or buffered is either the
   * exit, the close, or output the server no longer retains. Place exit and close, gap the rest.
   */
  private resolveEnd(result: ProcessReadResult): void {
    const nextSeq = result.nextSeq;
    let ranges = missingRanges(this.lastDeliveredSeq, nextSeq, this.buffer.spans());
    if (result.closed && !this.buffer.hasKind('closed')) {
      const closedSeq = nextSeq - 1;
      if (ranges.some(([a, b]) => a <= closedSeq && closedSeq <= b)) {
        this.buffer.add({ kind: 'closed', seq: closedSeq }, true);
        ranges = missingRanges(this.lastDeliveredSeq, nextSeq, this.buffer.spans());
      }
    }
    if (result.exited && this.exitCode === null && !this.buffer.hasKind('exited') && ranges.length > 0) {
      // Output drained after the exit sits above it, so an interior hole is the exit; otherwise the
      // exit is the newest seq of the leading hole (older ones were evicted output).
      const leading = ranges[0]![0] === this.lastDeliveredSeq + 1 ? ranges[0]! : null;
      const interior = ranges.find((r) => r !== leading);
      const exitedSeq = interior ? interior[0] : leading![1];
      this.buffer.add({ kind: 'exited', seq: exitedSeq, exitCode: result.exitCode ?? -1 }, true);
      ranges = missingRanges(this.lastDeliveredSeq, nextSeq, this.buffer.spans());
    }
    this.addGaps(ranges);
  }

  private addGaps(ranges: Array<[number, number]>): void {
    for (const [from, to] of ranges) this.buffer.add({ kind: 'gap', fromSeq: from, toSeq: to }, true);
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
          data: wireBytesToBuffer(entry.chunk),
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
    this.log.append(event);
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
