// Every attached renderer, and the one owner of that set: attaching and detaching them, sending an
// event to all, and reducing their per-process offsets to what all of them were sent or consumed.
import { randomUUID } from 'node:crypto';
import type { EventName, EventPayload } from '../../../shared/ipc';
import { RendererLink, type EventSink, type StreamSource } from './renderer-link';

export class RendererFanout {
  private readonly links = new Set<RendererLink>();

  attach(sink: EventSink, source: StreamSource): RendererLink {
    const link = new RendererLink(randomUUID(), sink, source);
    this.links.add(link);
    return link;
  }

  detach(link: RendererLink): void {
    link.close();
    this.links.delete(link);
  }

  /** How many renderers are attached now. */
  get count(): number {
    return this.links.size;
  }

  closeAll(): void {
    for (const link of this.links) link.close();
    this.links.clear();
  }

  broadcast<N extends EventName>(name: N, payload: EventPayload<N>): void {
    for (const link of this.links) link.emit(name, payload);
  }

  /** A new process: its live events flow to every renderer from seq 1. */
  subscribe(envId: string, processId: string): void {
    for (const link of this.links) link.subscribe(envId, processId);
  }

  forget(envId: string, processId: string): void {
    for (const link of this.links) link.forget(envId, processId);
  }

  /** Output was appended to some process's log: each renderer schedules its next batch. */
  notify(bytes: number): void {
    for (const link of this.links) link.notify(bytes);
  }

  /** The output offset every renderer following this process has consumed, at most `upTo`. */
  consumedFrontier(envId: string, processId: string, upTo: number): number {
    let frontier = upTo;
    for (const link of this.links) {
      const offset = link.consumedOffset(envId, processId);
      if (offset !== null) frontier = Math.min(frontier, offset);
    }
    return frontier;
  }

  /** The output offset every renderer following this process has been sent, at most `upTo`. */
  sentFrontier(envId: string, processId: string, upTo: number): number {
    let sent = upTo;
    for (const link of this.links) sent = Math.min(sent, link.sentOffset(envId, processId) ?? sent);
    return sent;
  }
}
