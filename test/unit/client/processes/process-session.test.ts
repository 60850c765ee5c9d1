// ProcessSession's ordering logic fed by a scripted notification stream and a scripted
// process/read: reordering, duplicates, overflow, catch-up after a reconnect and gap events.
import { describe, expect, it } from 'vitest';
import type { ProcessEvent } from '../../../../electron/client/api';
import type { WireProcessEvent } from '../../../../electron/client/link/connection';
import {
  ProcessSession,
  type ProcessSessionOps,
} from '../../../../electron/client/processes/process-session';
import type { ProcessReadResult } from '../../../../shared/protocol';

type ServerEvent = WireProcessEvent;

/** A scripted server-side process: its events, what it still retains, and the read calls seen. */
class ScriptedProcess {
  events: ServerEvent[] = [];
  /** Output seqs at or below this were evicted. */
  evictedThrough = 0;
  reads: Array<{ afterSeq: number }> = [];
  /** Runs once a read has been answered, before the client sees the answer (output meanwhile). */
  afterRead: (() => void) | null = null;
  writes: Array<{ chunk: string; writeId: string }> = [];

  output(seq: number, text: string): ServerEvent {
    const e: ServerEvent = {
      kind: 'output',
      seq,
      stream: 'stdout',
      chunk: Buffer.from(text).toString('base64'),
    };
    this.events.push(e);
    return e;
  }

  exited(seq: number, exitCode: number): ServerEvent {
    const e: ServerEvent = { kind: 'exited', seq, exitCode };
    this.events.push(e);
    return e;
  }

  closed(seq: number): ServerEvent {
    const e: ServerEvent = { kind: 'closed', seq };
    this.events.push(e);
    return e;
  }

  /** process/read as codex answers it (maxBytes honoured chunk-wise, never splitting). */
  read(afterSeq: number, maxBytes: number): ProcessReadResult {
    this.reads.push({ afterSeq });
    const chunks: ProcessReadResult['chunks'] = [];
    let total = 0;
    for (const e of this.events) {
      if (e.kind !== 'output' || e.seq <= afterSeq || e.seq <= this.evictedThrough) continue;
      const size = Buffer.from(e.chunk as string, 'base64').length;
      if (chunks.length > 0 && total + size > maxBytes) break;
      chunks.push({ seq: e.seq, stream: e.stream, chunk: e.chunk });
      total += size;
      if (total >= maxBytes) break;
    }
    const exited = this.events.find((e) => e.kind === 'exited');
    const maxSeq = Math.max(0, ...this.events.map((e) => e.seq));
    const last = chunks[chunks.length - 1];
    return {
      chunks,
      nextSeq: last ? last.seq + 1 : maxSeq + 1,
      exited: exited !== undefined,
      exitCode: exited?.kind === 'exited' ? exited.exitCode : null,
      closed: this.events.some((e) => e.kind === 'closed'),
      failure: null,
    };
  }
}

function makeSession(
  server: ScriptedProcess,
  options: { reorderEvents?: number; retainedEvents?: number; subscribed?: boolean } = {},
) {
  const ops: ProcessSessionOps = {
    callOnce: (() => Promise.resolve({})) as ProcessSessionOps['callOnce'],
    callRetrying: ((method: string, params: Record<string, unknown>) => {
      if (method === 'process/read') {
        const result = server.read(params.afterSeq as number, params.maxBytes as number);
        const afterRead = server.afterRead;
        server.afterRead = null;
        afterRead?.();
        return Promise.resolve(result);
      }
      if (method === 'process/write') {
        server.writes.push({ chunk: params.chunk as string, writeId: params.writeId as string });
        return Promise.resolve({ status: 'accepted' });
      }
      return Promise.resolve({});
    }) as ProcessSessionOps['callRetrying'],
    notify: () => undefined,
    hasCapability: () => false,
    forget: () => undefined,
  };
  const session = new ProcessSession(ops, {
    processId: 'p',
    retained: { maxEvents: options.retainedEvents ?? 1000, maxBytes: 1 << 20 },
    reorder: { maxEvents: options.reorderEvents ?? 256, maxBytes: 1 << 20 },
    flowControl: false,
    tty: false,
  });
  const seen: ProcessEvent[] = [];
  if (options.subscribed !== false) session.subscribe((e) => seen.push(e));
  return { session, seen };
}

function describeEvents(events: ProcessEvent[]): string[] {
  return events.map((e) => {
    switch (e.kind) {
      case 'output':
        return `${e.seq}:${Buffer.from(e.data).toString()}`;
      case 'exited':
        return `${e.seq}:exit ${e.exitCode}`;
      case 'closed':
        return `${e.seq}:closed`;
      case 'gap':
        return `gap ${e.fromSeq}-${e.toSeq}`;
      case 'failed':
        return `failed`;
    }
  });
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

describe('ProcessSession ordering', () => {
  it('releases events in seq order, each once, whatever the arrival order', () => {
    const server = new ScriptedProcess();
    const { session, seen } = makeSession(server);
    const [a, b, c, d, e] = [
      server.output(1, 'a'),
      server.output(2, 'b'),
      server.output(3, 'c'),
      server.exited(4, 3),
      server.closed(5),
    ];
    for (const event of [c, a, a, e, d, b, c, b]) session.accept(event!);
    expect(describeEvents(seen)).toEqual(['1:a', '2:b', '3:c', '4:exit 3', '5:closed']);
    expect(session.exitCode).toBe(3);
    expect(session.closed).toBe(true);
    session.accept(server.output(6, 'late'));
    expect(seen).toHaveLength(5);
  });

  it('accepts notifications that arrive before the start is confirmed', () => {
    const server = new ScriptedProcess();
    const { session, seen } = makeSession(server);
    session.accept(server.output(2, 'b'));
    session.accept(server.output(1, 'a'));
    session.markStarted(42);
    expect(describeEvents(seen)).toEqual(['1:a', '2:b']);
    expect(session.pid).toBe(42);
  });

  it('hands what came before the first subscriber to it, and holds nothing once someone listens', () => {
    const server = new ScriptedProcess();
    const { session } = makeSession(server, { retainedEvents: 3, subscribed: false });
    for (let seq = 1; seq <= 5; seq++) session.accept(server.output(seq, String(seq)));
    const all: ProcessEvent[] = [];
    session.subscribe((e) => all.push(e), { afterSeq: 0 });
    // The pre-subscribe buffer kept the newest three; the evicted ones are a gap, never hidden.
    expect(describeEvents(all)).toEqual(['gap 1-2', '3:3', '4:4', '5:5']);
    session.accept(server.output(6, '6'));
    expect(describeEvents(all).at(-1)).toBe('6:6');
    expect(session['log'].retainedBytes).toBe(0);
    // A later subscriber gets live events, and a gap for the seqs the first one took.
    const fromTwo: ProcessEvent[] = [];
    session.subscribe((e) => fromTwo.push(e), { afterSeq: 1 });
    session.accept(server.output(7, '7'));
    expect(describeEvents(fromTwo)).toEqual(['gap 2-6', '7:7']);
  });

  it('keeps events again while nobody listens, for the next subscriber', () => {
    const server = new ScriptedProcess();
    const { session } = makeSession(server, { subscribed: false });
    const first: ProcessEvent[] = [];
    const off = session.subscribe((e) => first.push(e));
    session.accept(server.output(1, 'a'));
    off();
    session.accept(server.output(2, 'b'));
    const next: ProcessEvent[] = [];
    session.subscribe((e) => next.push(e), { afterSeq: 1 });
    expect(describeEvents(next)).toEqual(['2:b']);
  });
});

describe('ProcessSession catch-up', () => {
  it('fills a reconnect gap with process/read, synthesising exit and close', async () => {
    const server = new ScriptedProcess();
    const { session, seen } = makeSession(server);
    session.markStarted(null);
    session.accept(server.output(1, 'a'));
    server.output(2, 'b');
    server.output(3, 'c');
    server.exited(4, 7);
    server.closed(5);
    session.resync();
    await settle();
    expect(describeEvents(seen)).toEqual(['1:a', '2:b', '3:c', '4:exit 7', '5:closed']);
    expect(server.reads[0]).toEqual({ afterSeq: 1 });
  });

  it('places the exit between output drained after it', async () => {
    const server = new ScriptedProcess();
    const { session, seen } = makeSession(server);
    session.markStarted(null);
    session.accept(server.output(1, 'a'));
    server.output(2, 'b');
    server.exited(3, 0);
    server.output(4, 'drain');
    server.closed(5);
    session.resync();
    await settle();
    expect(describeEvents(seen)).toEqual(['1:a', '2:b', '3:exit 0', '4:drain', '5:closed']);
  });

  it('emits a gap event for output the server no longer retains, and carries on', async () => {
    const server = new ScriptedProcess();
    const { session, seen } = makeSession(server);
    session.markStarted(null);
    session.accept(server.output(1, 'a'));
    for (let seq = 2; seq <= 9; seq++) server.output(seq, String(seq));
    server.evictedThrough = 6;
    session.resync();
    await settle();
    expect(describeEvents(seen)).toEqual(['1:a', 'gap 2-6', '7:7', '8:8', '9:9']);
    session.accept(server.output(10, 'live'));
    expect(describeEvents(seen).at(-1)).toBe('10:live');
    expect(session.closed).toBe(false);
  });

  it('marks evicted output as a gap when the process also exited meanwhile', async () => {
    const server = new ScriptedProcess();
    const { session, seen } = makeSession(server);
    session.markStarted(null);
    session.accept(server.output(1, 'a'));
    for (let seq = 2; seq <= 6; seq++) server.output(seq, String(seq));
    server.exited(7, 1);
    server.closed(8);
    server.evictedThrough = 4;
    session.resync();
    await settle();
    expect(describeEvents(seen)).toEqual(['1:a', 'gap 2-4', '5:5', '6:6', '7:exit 1', '8:closed']);
  });

  it('merges live events that arrive during the catch-up without duplicates', async () => {
    const server = new ScriptedProcess();
    const { session, seen } = makeSession(server);
    session.markStarted(null);
    session.accept(server.output(1, 'a'));
    server.output(2, 'b');
    const live = server.output(3, 'c');
    session.accept(live);
    session.resync();
    session.accept(live);
    await settle();
    session.accept(server.output(4, 'd'));
    expect(describeEvents(seen)).toEqual(['1:a', '2:b', '3:c', '4:d']);
  });

  it('ends the catch-up once live events continue where its read ended: no reads chasing them', async () => {
    const server = new ScriptedProcess();
    const { session, seen } = makeSession(server);
    session.markStarted(null);
    session.accept(server.output(1, 'a'));
    server.output(2, 'b');
    server.output(3, 'c');
    // Printed after the read was answered: on the resumed link they come live, ahead of the answer.
    server.afterRead = () => {
      session.accept(server.output(4, 'd'));
      session.accept(server.output(5, 'e'));
    };
    session.resync();
    await settle();
    expect(describeEvents(seen)).toEqual(['1:a', '2:b', '3:c', '4:d', '5:e']);
    expect(server.reads).toEqual([{ afterSeq: 1 }]);
    session.accept(server.output(6, 'f'));
    expect(describeEvents(seen).at(-1)).toBe('6:f');
  });

  it('turns reorder-buffer overflow into a catch-up read instead of a failure', async () => {
    const server = new ScriptedProcess();
    const { session, seen } = makeSession(server, { reorderEvents: 4 });
    session.markStarted(null);
    server.output(1, 'lost-in-flight');
    const later = [2, 3, 4, 5, 6, 7, 8].map((seq) => server.output(seq, String(seq)));
    for (const event of later) session.accept(event);
    await settle();
    expect(describeEvents(seen)).toEqual([
      '1:lost-in-flight',
      '2:2',
      '3:3',
      '4:4',
      '5:5',
      '6:6',
      '7:7',
      '8:8',
    ]);
    // One catch-up for all the overflowing events: a read from the last delivered seq, one that finds
    // nothing newer, and one re-check because more events overflowed while it ran.
    expect(server.reads).toEqual([{ afterSeq: 0 }, { afterSeq: 8 }, { afterSeq: 8 }]);
  });

  it('numbers writes per process and merges writes queued behind one in flight', async () => {
    const server = new ScriptedProcess();
    const { session } = makeSession(server);
    session.markStarted(null);
    const results = await Promise.all([session.write('a'), session.write('b'), session.write('c')]);
    expect(results).toEqual(['accepted', 'accepted', 'accepted']);
    const [first, second] = server.writes.map((w) => w.writeId);
    expect(first).toMatch(/^[0-9a-f]{16}-1$/);
    expect(second).toBe(first!.replace(/1$/, '2'));
    expect(server.writes.map((w) => Buffer.from(w.chunk, 'base64').toString()).join('')).toBe('abc');
  });

  it('never reuses the write ids of another session of the same process (an app restart)', async () => {
    const server = new ScriptedProcess();
    for (let instance = 0; instance < 2; instance++) {
      const { session } = makeSession(server);
      session.markStarted(null);
      await session.write('a');
      await session.write('b');
    }
    const ids = server.writes.map((w) => w.writeId);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
  });
});
