// Every attached renderer, and the one owner of that set: attaching and detaching them, sending an
// event to all, and reducing their per-process offsets to what all of them were sent or consumed.
import { randomUUID } from 'node:crypto';
import type { EventName, EventPayload } from '../../../shared/ipc';
import { RendererFeed, type EventSink, type StreamSource } from './renderer-link';

export class RendererFanout {
  private readonly feeds = new Set<RendererFeed>();

  attach(sink: EventSink, source: StreamSource): RendererFeed {
    const feed = new RendererFeed(randomUUID(), sink, source);
    this.feeds.add(feed);
    return feed;
  }

  detach(feed: RendererFeed): void {
    feed.close();
    this.feeds.delete(feed);
  }

  /** How many renderers are attached now. */
  get count(): number {
    return this.feeds.size;
  }

  closeAll(): void {
    for (const feed of this.feeds) feed.close();
    this.feeds.clear();
  }

  broadcast<N extends EventName>(name: N, payload: EventPayload<N>): void {
    for (const feed of this.feeds) feed.emit(name, payload);
  }

  /** A new process: its live events flow to every renderer from seq 1. */
  subscribe(envId: string, processId: string): void {
    for (const feed of this.feeds) feed.subscribe(envId, processId);
  }

  forget(envId: string, processId: string): void {
    for (const feed of this.feeds) feed.forget(envId, processId);
  }

  /** Output was appended to some process's log: each renderer schedules its next batch. */
  notify(bytes: number): void {
    for (const feed of this.feeds) feed.notify(bytes);
  }

  /** The output offset every renderer following this process has consumed, at most `upTo`. */
  consumedFrontier(envId: string, processId: string, upTo: number): number {
    let frontier = upTo;
    for (const feed of this.feeds) {
      const offset = feed.consumedOffset(envId, processId);
      if (offset !== null) frontier = Math.min(frontier, offset);
    }
    return frontier;
  }

  /** The output offset every renderer following this process has been sent, at most `upTo`. */
  sentFrontier(envId: string, processId: string, upTo: number): number {
    let sent = upTo;
    for (const feed of this.feeds) sent = Math.min(sent, feed.sentOffset(envId, processId) ?? sent);
    return sent;
  }
}
