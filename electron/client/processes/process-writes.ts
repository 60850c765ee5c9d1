// The one ordered write pipeline of a process: input and the end of input go out one call at a
// time, in the order they were asked for, each input batch under its own writeId so a resend after
// a reconnect is written once.
import { randomBytes } from 'node:crypto';
import {
  Method,
  TetherCapability,
  terminalEofBytes,
  type ParamsOf,
  type RequestMethod,
  type ResultOf,
  type WriteStatus,
} from '../../../shared/protocol';
import { ClientError } from '../client-error';
import { MAX_WRITE_BATCH_BYTES } from '../constants';

/** What the pipeline needs of its client (a part of ProcessSessionOps). */
export interface WriteCalls {
  /** Idempotent calls: resent after a reconnect until they get an answer or the client fails. */
  callRetrying<M extends RequestMethod>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  hasCapability(name: string): boolean;
}

/** A piece of input, or (bytes null) the end of input, in the one ordered write pipeline. */
interface QueuedWrite {
  bytes: Uint8Array | null;
  resolve(status: WriteStatus): void;
  reject(error: unknown): void;
}

export class WritePipeline {
  private readonly queue: QueuedWrite[] = [];
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

  constructor(
    private readonly processId: string,
    private readonly calls: WriteCalls,
    /** Started under a terminal: input can be ended with its EOF character. */
    private readonly tty: boolean,
  ) {}

  /** Queues `bytes` in pieces of at most MAX_WRITE_BATCH_BYTES; the first status not `accepted` wins. */
  write(bytes: Uint8Array): Promise<WriteStatus> {
    if (bytes.byteLength > 0) this.lastQueuedByte = bytes[bytes.byteLength - 1]!;
    const pieces: Array<Promise<WriteStatus>> = [];
    for (let offset = 0; offset < bytes.byteLength || offset === 0; offset += MAX_WRITE_BATCH_BYTES) {
      const piece = bytes.subarray(offset, offset + MAX_WRITE_BATCH_BYTES);
      pieces.push(new Promise((resolve, reject) => this.queue.push({ bytes: piece, resolve, reject })));
      if (bytes.byteLength === 0) break;
    }
    this.pump();
    return Promise.all(pieces).then((statuses) => statuses.find((s) => s !== 'accepted') ?? 'accepted');
  }

  /**
   * Ends the input after the writes before it: process/closeStdin where the server has it, else
   * the terminal's EOF character under a tty.
   */
  closeStdin(): Promise<WriteStatus> {
    if (!this.calls.hasCapability(TetherCapability.closeStdin)) {
      if (this.tty) return this.write(terminalEofBytes(this.lastQueuedByte));
      return Promise.reject(
        new ClientError(
          'unsupported',
          "This server cannot close a process's stdin (it has no process/closeStdin, and the process " +
            'has no terminal to send ^D to), so a program that reads to the end of its input keeps waiting.',
        ),
      );
    }
    const ended = new Promise<WriteStatus>((resolve, reject) =>
      this.queue.push({ bytes: null, resolve, reject }),
    );
    this.pump();
    return ended;
  }

  /** Fails every write not yet sent. */
  rejectQueued(error: ClientError): void {
    for (const w of this.queue.splice(0)) w.reject(error);
  }

  private pump(): void {
    const first = this.queue[0];
    if (this.writing || first === undefined) return;
    const batch: QueuedWrite[] = [];
    let call: Promise<{ status: WriteStatus }>;
    if (first.bytes === null) {
      batch.push(this.queue.shift()!);
      // The server closes at most once per process, so a retry after a reconnect is harmless.
      call = this.calls.callRetrying(Method.processCloseStdin, { processId: this.processId });
    } else {
      const pieces: Uint8Array[] = [];
      let size = 0;
      for (let next: QueuedWrite | undefined = first; next?.bytes; next = this.queue[0]) {
        if (pieces.length > 0 && size + next.bytes.byteLength > MAX_WRITE_BATCH_BYTES) break;
        batch.push(this.queue.shift()!);
        pieces.push(next.bytes);
        size += next.bytes.byteLength;
      }
      // Raw: the connection sends it in a data frame, or as base64 where none were agreed.
      const chunk = Buffer.concat(pieces);
      const writeId = `${this.writeIdPrefix}-${++this.writeCounter}`;
      call = this.calls.callRetrying(Method.processWrite, { processId: this.processId, chunk, writeId });
    }
    this.writing = true;
    call
      .then(
        (result) => batch.forEach((w) => w.resolve(result.status)),
        (error: unknown) => batch.forEach((w) => w.reject(error)),
      )
      .finally(() => {
        this.writing = false;
        this.pump();
      });
  }
}
