// Catch-up of a process's events after a reconnect or a reorder-buffer overflow: process/read from
// the last delivered seq until nothing new comes back or live events carry on from it, merged into
// the reorder buffer, with the exit and close placed where they belong and visible gaps for output
// the server no longer retains.
import type { ProcessReadParams, ProcessReadResult } from '../../../shared/protocol';
import { isUnknownProcessError, toClientError } from '../client-error';
import { CATCH_UP_READ_MAX_BYTES } from '../constants';
import type { ReorderBuffer } from './reorder-buffer';

/**
 * Missing seq ranges [from, to] in (after, before) not covered by `held` (seq spans). Walks the
 * held spans, never the seqs between them: a server may claim any `nextSeq` (2^53 - 1, say), and
 * the cost must stay that of what we hold.
 */
export function missingRanges(
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

function addGaps(buffer: ReorderBuffer, ranges: Array<[number, number]>): void {
  for (const [from, to] of ranges) buffer.add({ kind: 'gap', fromSeq: from, toSeq: to }, true);
}

/**
 * The read caught up: every seq below `nextSeq` not yet delivered or buffered is either the
 * exit, the close, or output the server no longer retains. Place exit and close, gap the rest.
 */
function resolveEnd(
  buffer: ReorderBuffer,
  lastDeliveredSeq: number,
  exitDelivered: boolean,
  result: ProcessReadResult,
): void {
  const nextSeq = result.nextSeq;
  let ranges = missingRanges(lastDeliveredSeq, nextSeq, buffer.spans());
  if (result.closed && !buffer.hasKind('closed')) {
    const closedSeq = nextSeq - 1;
    if (ranges.some(([a, b]) => a <= closedSeq && closedSeq <= b)) {
      buffer.add({ kind: 'closed', seq: closedSeq }, true);
      ranges = missingRanges(lastDeliveredSeq, nextSeq, buffer.spans());
    }
  }
  if (result.exited && !exitDelivered && !buffer.hasKind('exited') && ranges.length > 0) {
    // Output drained after the exit sits above it, so an interior hole is the exit; otherwise the
    // exit is the newest seq of the leading hole (older ones were evicted output).
    const leading = ranges[0]![0] === lastDeliveredSeq + 1 ? ranges[0]! : null;
    const interior = ranges.find((r) => r !== leading);
    const exitedSeq = interior ? interior[0] : leading![1];
    buffer.add({ kind: 'exited', seq: exitedSeq, exitCode: result.exitCode ?? -1 }, true);
    ranges = missingRanges(lastDeliveredSeq, nextSeq, buffer.spans());
  }
  addGaps(buffer, ranges);
}

/** The process a catch-up reads for: its ProcessSession, seen through what catch-up needs. */
export interface CatchUpTarget {
  readonly processId: string;
  readonly buffer: ReorderBuffer;
  read(params: ProcessReadParams): Promise<ProcessReadResult>;
  lastDeliveredSeq(): number;
  exitDelivered(): boolean;
  finished(): boolean;
  /** Delivers what the buffer now holds in order. */
  drain(): void;
  fail(message: string): void;
}

/** At most one catch-up at a time; one requested meanwhile runs again when it ends. */
export class CatchUp {
  private running: Promise<void> | null = null;
  private again = false;
  /** process/start has succeeded, so process/read may be used. */
  private started = false;

  constructor(private readonly target: CatchUpTarget) {}

  /** Called once process/start succeeded; runs a catch-up that was requested meanwhile. */
  markStarted(): void {
    this.started = true;
    if (this.again) this.request();
  }

  request(): void {
    if (this.target.finished()) return;
    if (this.running || !this.started) {
      this.again = true;
      return;
    }
    this.running = this.run().finally(() => {
      this.running = null;
    });
  }

  private async run(): Promise<void> {
    const target = this.target;
    try {
      do {
        this.again = false;
        await this.readUntilCaughtUp();
      } while (this.again && !target.finished());
    } catch (error) {
      const err = toClientError(error);
      target.fail(
        isUnknownProcessError(err)
          ? `The server no longer knows process ${target.processId}; its output after seq ${target.lastDeliveredSeq()} cannot be recovered.`
          : `Could not recover the output of process ${target.processId}: ${err.message}`,
      );
    }
  }

  /**
   * process/read from the last delivered seq, merged into the stream, until nothing new comes back
   * or the live events carry on from where a read ended.
   */
  private async readUntilCaughtUp(): Promise<void> {
    const target = this.target;
    let afterSeq = target.lastDeliveredSeq();
    let first = true;
    while (!target.finished()) {
      const result = await target.read({
        processId: target.processId,
        afterSeq,
        maxBytes: CATCH_UP_READ_MAX_BYTES,
        waitMs: 0,
      });
      if (target.finished()) return;
      for (const c of result.chunks) {
        if (c.seq > target.lastDeliveredSeq()) target.buffer.add({ kind: 'output', ...c }, true);
        afterSeq = Math.max(afterSeq, c.seq);
      }
      const firstChunk = result.chunks[0];
      if (first && firstChunk && !result.exited) {
        // A running process has no exited/closed seq yet, so anything missing before the oldest
        // retained chunk was evicted on the server.
        addGaps(
          target.buffer,
          missingRanges(target.lastDeliveredSeq(), firstChunk.seq, target.buffer.spans()),
        );
      }
      first = false;
      target.drain();
      // Delivery went past the read's last chunk: the events after it came live (the server sends
      // all that follows those), so the hole is filled. Reading on would only chase the live output
      // with one round trip per few lines, fetching what arrives anyway.
      if (result.chunks.length > 0 && !result.failure && target.lastDeliveredSeq() > afterSeq) return;
      if (result.chunks.length === 0) {
        resolveEnd(target.buffer, target.lastDeliveredSeq(), target.exitDelivered(), result);
        target.drain();
        if (result.failure) target.fail(result.failure);
        return;
      }
    }
  }
}
