// Per-process output pipeline into one terminal: replays retained output first, buffers live
// events meanwhile, drops duplicates by seq, writes against the sink's completion callback with
// high/low watermarks, and acknowledges every output byte it received exactly once (batched): the
// AppService counts replayed and live bytes alike against this renderer's window. Acks also tell
// the AppService how far the sink has parsed, so a later replay knows which output was shown.
import { lastSeqOf, type CommandOutput, type GapCause, type ProcessEventView } from '../../../shared/ipc';
import { ACK_BATCH_BYTES, ACK_INTERVAL_MS, HIGH_WATERMARK_BYTES, LOW_WATERMARK_BYTES } from './flow-limits';
import { formatClock } from '../../ui/format';
import { errorMessage } from '../../../shared/error-message';
import { PipeOutput } from './pipe-output';

/**
 * Where output goes: xterm in the app, a recorder in tests. `done` fires once the data is parsed.
 * `replayed` marks output some terminal has already parsed (a replay through the AppService's
 * `shownThroughSeq`): its terminal queries were answered then, so answers to them must go nowhere.
 * Replayed output no terminal has shown yet (a new pane's first output, output missed while the
 * bridge was down) is fresh, like live output.
 */
export interface OutputSink {
  write(data: Uint8Array | string, done: () => void, replayed: boolean): void;
}

export interface OutputFlowDeps {
  sink: OutputSink;
  replay: (afterSeq: number) => Promise<CommandOutput<'processes.replay'>>;
  /**
   * The renderer consumed `deltaBytes` more output bytes (a delta, see `processes.ack`);
   * `shownThroughSeq` is set when the sink has parsed output through a later seq since the last ack.
   */
  ack: (deltaBytes: number, shownThroughSeq?: number) => void;
  highWatermark?: number;
  lowWatermark?: number;
}

interface QueuedWrite {
  data: Uint8Array | string;
  size: number;
  /** Output bytes this write acknowledges once parsed (0 for markers). */
  ackBytes: number;
  replayed: boolean;
  /** The seq of the event this write shows (0 for our own notes). */
  seq: number;
}

const DIM_YELLOW = '\x1b[2;33m';
const RED = '\x1b[31m';
const DIM = '\x1b[2m';
const RESET = '\x1b[0m';

function gapMarker(fromSeq: number, toSeq: number, at: number, cause: GapCause): string {
  const range = fromSeq === toSeq ? `seq ${fromSeq}` : `seqs ${fromSeq}–${toSeq}`;
  const why = cause === 'app' ? "over the app's output limit" : 'server no longer held it';
  return `\r\n${DIM_YELLOW}⚠ output lost: ${range} (${why}) at ${formatClock(at)}${RESET}\r\n`;
}

export class OutputFlow {
  private lastSeqSeen = 0;
  private replaying = true;
  private started = false;
  private disposed = false;
  private readonly heldLive: ProcessEventView[] = [];
  private readonly queue: QueuedWrite[] = [];
  private pending = 0;
  /** Output bytes handed to the sink and not yet parsed: owed to the server if we are disposed first. */
  private pendingAckBytes = 0;
  private paused = false;
  private ackWaiting = 0;
  private ackTimer: ReturnType<typeof setTimeout> | null = null;
  /** The last seq the sink has parsed, and the last one told to the AppService. */
  private parsedSeq = 0;
  private reportedSeq = 0;
  private readonly high: number;
  private readonly low: number;
  /** Newlines and stderr's colour for a process without a tty (see pipe-output). */
  private readonly pipe = new PipeOutput();

  constructor(private readonly deps: OutputFlowDeps) {
    this.high = deps.highWatermark ?? HIGH_WATERMARK_BYTES;
    this.low = deps.lowWatermark ?? LOW_WATERMARK_BYTES;
  }

  get lastSeq(): number {
    return this.lastSeqSeen;
  }

  /** Bytes handed to the sink and not yet parsed. */
  get pendingBytes(): number {
    return this.pending;
  }

  /** Bytes waiting in the queue because the sink is above its watermark. */
  get queuedBytes(): number {
    return this.queue.reduce((sum, item) => sum + item.size, 0);
  }

  /** Replays everything the AppService retained, then switches to live events. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.replayFrom(0);
  }

  /**
   * Catches up after the bridge to the AppService reconnected: replays what came after the last
   * seq written (live events meanwhile are held, then deduplicated).
   */
  async catchUp(): Promise<void> {
    if (!this.started || this.replaying || this.disposed) return;
    await this.replayFrom(this.lastSeqSeen);
  }

  private async replayFrom(afterSeq: number): Promise<void> {
    this.replaying = true;
    try {
      const result = await this.deps.replay(afterSeq);
      if (this.disposed) {
        // The AppService counted these bytes against our window when it answered: give them back.
        this.ackNow(result.events.reduce((sum, e) => sum + outputBytes(e), 0));
        return;
      }
      for (const event of result.events) this.accept(event, lastSeqOf(event) <= result.shownThroughSeq);
      this.lastSeqSeen = Math.max(this.lastSeqSeen, result.lastSeq);
    } catch (error) {
      if (this.disposed) return;
      const message = errorMessage(error);
      const reset = this.pipe.interrupt({ lostOutput: false });
      this.enqueueText(`${reset}\r\n${RED}could not replay earlier output: ${message}${RESET}\r\n`, false);
    }
    this.replaying = false;
    const held = this.heldLive.splice(0);
    for (const event of held) this.accept(event, false);
  }

  /** Live events from `processes.events`, in seq order. */
  pushLive(events: ProcessEventView[]): void {
    if (this.disposed) {
      this.ackNow(events.reduce((sum, e) => sum + outputBytes(e), 0));
      return;
    }
    if (this.replaying) {
      this.heldLive.push(...events);
      return;
    }
    for (const event of events) this.accept(event, false);
  }

  /**
   * Stops writing; output still queued, held or in the sink counts as consumed so the server never
   * waits on it (a disposed terminal may never report its last writes parsed).
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    let owed = this.pendingAckBytes + this.queue.splice(0).reduce((sum, item) => sum + item.ackBytes, 0);
    owed += this.heldLive.splice(0).reduce((sum, e) => sum + outputBytes(e), 0);
    this.ackWaiting += owed;
    this.flushAck();
  }

  private accept(event: ProcessEventView, replayed: boolean): void {
    const seq = lastSeqOf(event);
    if (seq <= this.lastSeqSeen) {
      this.ackNow(outputBytes(event));
      return;
    }
    this.lastSeqSeen = seq;
    switch (event.kind) {
      case 'output': {
        const bytes = event.data;
        // A pty's line discipline already wrote `\r\n`; pipe output is translated for the screen.
        const data = event.stream === 'pty' ? bytes : this.pipe.translate(event.stream, bytes);
        this.enqueue({ data, size: data.length, ackBytes: bytes.length, replayed, seq });
        break;
      }
      case 'gap':
        this.enqueueText(
          this.pipe.interrupt({ lostOutput: true }) +
            gapMarker(event.fromSeq, event.toSeq, event.at, event.cause ?? 'server'),
          replayed,
          seq,
        );
        break;
      case 'exited':
        this.enqueueText(
          `${this.pipe.interrupt({ lostOutput: false })}\r\n${DIM}[process exited with code ${event.exitCode}]${RESET}\r\n`,
          replayed,
          seq,
        );
        break;
      case 'failed':
        this.enqueueText(
          `${this.pipe.interrupt({ lostOutput: false })}\r\n${RED}[process failed: ${event.message}]${RESET}\r\n`,
          replayed,
          seq,
        );
        break;
      case 'closed':
        break;
    }
  }

  private enqueueText(text: string, replayed: boolean, seq = 0): void {
    this.enqueue({ data: text, size: text.length, ackBytes: 0, replayed, seq });
  }

  private enqueue(item: QueuedWrite): void {
    this.queue.push(item);
    this.pump();
  }

  private pump(): void {
    while (!this.disposed && !this.paused && this.queue.length > 0) {
      if (this.pending >= this.high) {
        this.paused = true;
        return;
      }
      const item = this.queue.shift() as QueuedWrite;
      this.pending += item.size;
      this.pendingAckBytes += item.ackBytes;
      this.deps.sink.write(item.data, () => this.completed(item), item.replayed);
    }
  }

  private completed(item: QueuedWrite): void {
    this.pending -= item.size;
    if (this.disposed) return;
    this.pendingAckBytes -= item.ackBytes;
    this.parsedSeq = Math.max(this.parsedSeq, item.seq);
    if (item.ackBytes > 0) {
      this.ackWaiting += item.ackBytes;
      if (this.ackWaiting >= ACK_BATCH_BYTES) this.flushAck();
      else this.ackTimer ??= setTimeout(() => this.flushAck(), ACK_INTERVAL_MS);
    }
    if (this.paused && this.pending <= this.low) this.paused = false;
    this.pump();
  }

  private ackNow(bytes: number): void {
    if (bytes <= 0) return;
    this.ackWaiting += bytes;
    this.flushAck();
  }

  private flushAck(): void {
    if (this.ackTimer !== null) {
      clearTimeout(this.ackTimer);
      this.ackTimer = null;
    }
    if (this.ackWaiting <= 0) return;
    const bytes = this.ackWaiting;
    this.ackWaiting = 0;
    if (this.parsedSeq > this.reportedSeq) {
      this.reportedSeq = this.parsedSeq;
      this.deps.ack(bytes, this.parsedSeq);
    } else {
      this.deps.ack(bytes);
    }
  }
}

/** Output bytes an event carries. */
export function outputBytes(event: ProcessEventView): number {
  return event.kind === 'output' ? event.data.byteLength : 0;
}
