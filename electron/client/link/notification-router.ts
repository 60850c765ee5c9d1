// Routes one connection's process notifications to their ProcessSessions by processId. Output may
// arrive before its process is routed (ahead of the process/start answer, or before a re-attach),
// so events for an unknown id wait in a small buffer: bounded in count, and dropped after a TTL.
// readProcessNotification reads a process/* notification's event off the wire.
import {
  Notification,
  ProcessClosedNotification,
  ProcessExitedNotification,
  ProcessOutputNotification,
  type WireBytes,
} from '../../../shared/protocol';
import type { ZodError } from 'zod';
import { UNROUTED_NOTIFICATION_LIMIT, UNROUTED_NOTIFICATION_TTL_MS } from '../constants';

/** A process notification as it came off the wire (chunk still base64, or raw from a data frame). */
export type WireProcessEvent =
  | { kind: 'output'; seq: number; stream: 'stdout' | 'stderr' | 'pty'; chunk: WireBytes }
  | { kind: 'exited'; seq: number; exitCode: number }
  | { kind: 'closed'; seq: number };

export type ProcessEventSink = (event: WireProcessEvent) => void;

/** A process notification read: its process and event, or why its params do not match the protocol. */
export type ProcessNotification =
  { ok: true; processId: string; event: WireProcessEvent } | { ok: false; error: ZodError };

/** Reads the event of a process/* notification; null when `method` is not one. */
export function readProcessNotification(method: string, params: unknown): ProcessNotification | null {
  if (method === Notification.processOutput) {
    const p = ProcessOutputNotification.safeParse(params);
    if (!p.success) return { ok: false, error: p.error };
    const { processId, seq, stream, chunk } = p.data;
    return { ok: true, processId, event: { kind: 'output', seq, stream, chunk } };
  }
  if (method === Notification.processExited) {
    const p = ProcessExitedNotification.safeParse(params);
    if (!p.success) return { ok: false, error: p.error };
    const { processId, seq, exitCode } = p.data;
    return { ok: true, processId, event: { kind: 'exited', seq, exitCode } };
  }
  if (method === Notification.processClosed) {
    const p = ProcessClosedNotification.safeParse(params);
    if (!p.success) return { ok: false, error: p.error };
    const { processId, seq } = p.data;
    return { ok: true, processId, event: { kind: 'closed', seq } };
  }
  return null;
}

interface UnroutedEvents {
  events: WireProcessEvent[];
  firstAt: number;
}

export class NotificationRouter {
  private readonly routes = new Map<string, ProcessEventSink>();
  private readonly unrouted = new Map<string, UnroutedEvents>();
  private unroutedCount = 0;

  /** Routes this process's notifications to `sink`, delivering any that arrived before. */
  route(processId: string, sink: ProcessEventSink): void {
    this.routes.set(processId, sink);
    const early = this.unrouted.get(processId);
    if (early) {
      this.unrouted.delete(processId);
      this.unroutedCount -= early.events.length;
      for (const event of early.events) sink(event);
    }
  }

  unroute(processId: string): void {
    this.routes.delete(processId);
  }

  /** Hands `event` to its process's sink, or keeps it for a route that may come shortly. */
  deliver(processId: string, event: WireProcessEvent): void {
    const sink = this.routes.get(processId);
    if (sink) {
      sink(event);
      return;
    }
    if (this.unroutedCount >= UNROUTED_NOTIFICATION_LIMIT) return;
    const entry = this.unrouted.get(processId) ?? { events: [], firstAt: Date.now() };
    entry.events.push(event);
    this.unrouted.set(processId, entry);
    this.unroutedCount += 1;
  }

  /** Drops the early events nobody routed within UNROUTED_NOTIFICATION_TTL_MS. */
  expire(now: number): void {
    for (const [processId, entry] of this.unrouted) {
      if (now - entry.firstAt > UNROUTED_NOTIFICATION_TTL_MS) {
        this.unrouted.delete(processId);
        this.unroutedCount -= entry.events.length;
      }
    }
  }

  /** The connection ended: early events can no longer be routed. */
  clearUnrouted(): void {
    this.unrouted.clear();
  }
}
