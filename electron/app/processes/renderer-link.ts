// RendererFeed: the stream of events to one renderer (an Electron window, a browser tab) and, per
// process, what it has been sent and not yet acknowledged. Output of a process stops flowing to this
// renderer while its unacknowledged bytes exceed the window; other processes keep flowing.
import {
  lastSeqOf,
  type EventName,
  type EventPayload,
  type ProcessEventBatch,
  type ProcessEventView,
} from '../../../shared/ipc';
import { OutputCoalescer } from '../../../shared/output-coalescing';
import { BATCH_MAX_BYTES, RENDERER_BATCHING, RENDERER_WINDOW_BYTES } from '../limits';
import type { ProcessLog } from './process-log';

export type EventSink = <N extends EventName>(name: N, payload: EventPayload<N>) => void;

export interface StreamSource {
  log(envId: string, processId: string): ProcessLog | undefined;
  /** The renderer consumed output of this process: flow control upstream may open. */
  consumed(envId: string, processId: string): void;
}

interface StreamState {
  envId: string;
  processId: string;
  lastSentSeq: number;
  /** Cumulative output offset of the process through lastSentSeq. */
  sentOffset: number;
  unacked: number;
}

export class RendererFeed {
  private readonly streams = new Map<string, StreamState>();
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private pendingBytes = 0;
  /** performance.now() of the last batch sent, and of the last output appended. */
  private readonly coalescer = new OutputCoalescer(RENDERER_BATCHING);
  private closed = false;

  constructor(
    readonly id: string,
    private readonly sink: EventSink,
    private readonly source: StreamSource,
    private readonly windowBytes = RENDERER_WINDOW_BYTES,
  ) {}

  emit: EventSink = (name, payload) => {
    if (!this.closed) this.sink(name, payload);
  };

  /** Live events of this process will flow to this renderer after `afterSeq`. */
  subscribe(envId: string, processId: string, afterSeq = 0): void {
    const k = key(envId, processId);
    if (!this.streams.has(k)) {
      this.streams.set(k, { envId, processId, lastSentSeq: afterSeq, sentOffset: 0, unacked: 0 });
    }
    this.schedule(0);
  }

  /** Retained events after `afterSeq`; live events then continue strictly after the returned lastSeq. */
  replay(envId: string, processId: string, log: ProcessLog, afterSeq: number) {
    const events: ProcessEventView[] = [];
    let bytes = 0;
    if (afterSeq < log.evictedThroughSeq) events.push(gapEvent(afterSeq, log.evictedThroughSeq));
    for (const entry of log.after(afterSeq)) {
      events.push(entry.event);
      bytes += entry.bytes;
    }
    const k = key(envId, processId);
    const state = this.streams.get(k) ?? { envId, processId, lastSentSeq: 0, sentOffset: 0, unacked: 0 };
    if (log.lastSeq >= state.lastSentSeq) {
      state.lastSentSeq = log.lastSeq;
      state.sentOffset = log.totalBytes;
    }
    state.unacked += bytes;
    this.streams.set(k, state);
    return { events, lastSeq: Math.max(log.lastSeq, afterSeq) };
  }

  /** The renderer consumed `deltaBytes` more output of this process (a delta, see `processes.ack`). */
  ack(envId: string, processId: string, deltaBytes: number): void {
    const state = this.streams.get(key(envId, processId));
    if (!state) return;
    state.unacked = Math.max(0, state.unacked - deltaBytes);
    this.source.consumed(envId, processId);
    this.schedule(0);
  }

  /** Output offset this renderer has consumed, or null if it does not follow the process. */
  consumedOffset(envId: string, processId: string): number | null {
    const state = this.streams.get(key(envId, processId));
    return state ? Math.max(0, state.sentOffset - state.unacked) : null;
  }

  /** Output offset this renderer has been sent (or skipped over as a gap). */
  sentOffset(envId: string, processId: string): number | null {
    return this.streams.get(key(envId, processId))?.sentOffset ?? null;
  }

  unackedBytes(envId: string, processId: string): number {
    return this.streams.get(key(envId, processId))?.unacked ?? 0;
  }

  forget(envId: string, processId: string): void {
    this.streams.delete(key(envId, processId));
  }

  /**
   * New events were appended to some process log. Output after a quiet spell (a keystroke's echo,
   * even one typed right after the previous echo) is flushed on the next turn of the event loop;
   * while output keeps coming, batches leave at most every BATCH_INTERVAL_MS (or as soon as
   * BATCH_MAX_BYTES wait): RENDERER_BATCHING, decided by the same coalescer the server uses.
   */
  notify(bytes: number): void {
    this.pendingBytes += bytes;
    this.schedule(this.coalescer.arrive(performance.now(), this.pendingBytes));
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.streams.clear();
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    if (delayMs === 0) {
      if (this.timer) {
        clearTimeout(this.timer);
        this.timer = null;
      }
      this.immediate ??= setImmediate(() => this.flush());
    } else if (!this.timer && !this.immediate) {
      this.timer = setTimeout(() => this.flush(), delayMs);
    }
  }

  private flush(): void {
    this.timer = null;
    this.immediate = null;
    this.pendingBytes = 0;
    const batches: ProcessEventBatch[] = [];
    let budget = BATCH_MAX_BYTES;
    let more = false;
    const served: Array<[string, StreamState]> = [];
    for (const [k, state] of this.streams) {
      const log = this.source.log(state.envId, state.processId);
      if (!log || state.lastSentSeq >= log.lastSeq) continue;
      const events: ProcessEventView[] = [];
      if (state.lastSentSeq < log.evictedThroughSeq) {
        events.push(gapEvent(state.lastSentSeq, log.evictedThroughSeq));
        state.lastSentSeq = log.evictedThroughSeq;
        state.sentOffset = log.evictedThroughOffset;
      }
      for (const entry of log.after(state.lastSentSeq)) {
        if (entry.bytes > 0 && (state.unacked >= this.windowBytes || budget <= 0)) {
          if (budget <= 0) more = true;
          break;
        }
        const event = entry.event;
        events.push(event);
        state.lastSentSeq = lastSeqOf(event);
        state.sentOffset = entry.endOffset;
        state.unacked += entry.bytes;
        budget -= entry.bytes;
      }
      if (events.length > 0) {
        batches.push({ envId: state.envId, processId: state.processId, events });
        served.push([k, state]);
      }
    }
    // Processes served now go to the back, so a flood in one cannot starve the others.
    for (const [k, state] of served) {
      this.streams.delete(k);
      this.streams.set(k, state);
    }
    if (batches.length > 0) {
      this.coalescer.flushed(performance.now());
      this.emit('processes.events', batches);
    }
    if (more) this.schedule(0);
  }
}

function key(envId: string, processId: string): string {
  return `${envId}\u0000${processId}`;
}

/** Output the app's log dropped (its own bound, or the cap on all logs) before this renderer got it. */
function gapEvent(afterSeq: number, throughSeq: number): ProcessEventView {
  return { kind: 'gap', fromSeq: afterSeq + 1, toSeq: throughSeq, at: Date.now(), cause: 'app' };
}
