import { afterEach, describe, expect, it } from 'vitest';
import { lastSeqOf, type ProcessEventBatch } from '../../../../shared/ipc';
import { ProcessLog } from '../../../../electron/app/processes/process-log';
import { RendererFeed } from '../../../../electron/app/processes/renderer-link';

const feeds: RendererFeed[] = [];
afterEach(() => {
  for (const feed of feeds.splice(0)) feed.close();
});

function setup(windowBytes: number, logLimit = 1 << 30) {
  const logs = new Map<string, ProcessLog>([
    ['a', new ProcessLog(logLimit, 1_000_000)],
    ['b', new ProcessLog(logLimit, 1_000_000)],
  ]);
  const batches: ProcessEventBatch[] = [];
  const consumed: string[] = [];
  const feed = new RendererFeed(
    'l1',
    (name, payload) => {
      if (name === 'processes.events') batches.push(...(payload as ProcessEventBatch[]));
    },
    { log: (_env, id) => logs.get(id), consumed: (_env, id) => consumed.push(id) },
    windowBytes,
  );
  feeds.push(feed);
  let seqs: Record<string, number> = { a: 0, b: 0 };
  const append = (id: string, bytes: number) => {
    const seq = ++seqs[id]!;
    logs.get(id)!.append({ kind: 'output', seq, stream: 'pty', data: Buffer.alloc(bytes, 120) }, bytes);
    feed.notify(bytes);
  };
  const sent = (id: string) => batches.filter((b) => b.processId === id).flatMap((b) => b.events);
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
  return { feed, logs, batches, append, sent, settle, consumed, reset: () => (seqs = { a: 0, b: 0 }) };
}

describe('RendererFeed', () => {
  it('sends each seq once, in order, batched', async () => {
    const t = setup(1 << 20);
    t.feed.subscribe('e', 'a');
    for (let i = 0; i < 100; i++) t.append('a', 10);
    await t.settle();
    expect(t.sent('a').map((e) => lastSeqOf(e))).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(t.batches.length).toBeLessThan(100);
  });

  it('sends output after a quiet spell on the next event-loop turn, without waiting for the interval', async () => {
    const t = setup(1 << 20);
    t.feed.subscribe('e', 'a');
    await t.settle();
    t.append('a', 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.sent('a').map((e) => lastSeqOf(e))).toEqual([1]);
  });

  it('sends a lone echo at once even right after the previous batch', async () => {
    const t = setup(1 << 20);
    t.feed.subscribe('e', 'a');
    t.append('a', 1);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 6));
    t.append('a', 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.sent('a').map((e) => lastSeqOf(e))).toEqual([1, 2]);
  });

  it('stops a process at its window until acked, while another process keeps flowing', async () => {
    const t = setup(1000);
    t.feed.subscribe('e', 'a');
    t.feed.subscribe('e', 'b');
    for (let i = 0; i < 50; i++) t.append('a', 100);
    await t.settle();
    expect(t.sent('a')).toHaveLength(10);
    expect(t.feed.unackedBytes('e', 'a')).toBe(1000);
    for (let i = 0; i < 5; i++) t.append('b', 100);
    await t.settle();
    expect(t.sent('b')).toHaveLength(5);
    t.feed.ack('e', 'a', 500);
    await t.settle();
    expect(t.sent('a')).toHaveLength(15);
    expect(t.consumed).toContain('a');
    expect(t.feed.consumedOffset('e', 'a')).toBe(500);
  });

  it('reports dropped output as one gap event and continues after it', async () => {
    const t2 = setup(300, 300);
    t2.feed.subscribe('e', 'a');
    for (let i = 0; i < 3; i++) t2.append('a', 100);
    await t2.settle();
    expect(t2.sent('a').map((e) => lastSeqOf(e))).toEqual([1, 2, 3]);
    for (let i = 0; i < 10; i++) t2.append('a', 100);
    t2.feed.ack('e', 'a', 300);
    await t2.settle();
    const events = t2.sent('a');
    const gap = events.find((e) => e.kind === 'gap');
    expect(gap).toMatchObject({ kind: 'gap', fromSeq: 4, toSeq: 10 });
    expect(events.map((e) => lastSeqOf(e))).toEqual([1, 2, 3, 10, 11, 12, 13]);
  });

  it('replays a log that overflowed as one gap for exactly the dropped seqs, then the kept tail', async () => {
    // A log bound of 300 bytes with 100-byte chunks: after 10 chunks, seqs 1–7 (700 bytes) are gone.
    const t = setup(1 << 20, 300);
    for (let i = 0; i < 10; i++) t.append('a', 100);
    await t.settle();
    const log = t.logs.get('a')!;
    expect([log.evictedThroughSeq, log.evictedThroughOffset]).toEqual([7, 700]);

    // A reloaded renderer that had seen nothing: the gap names seqs 1–7, the tail follows whole.
    const fresh = t.feed.replay('e', 'a', log, 0);
    expect(fresh.events[0]).toMatchObject({ kind: 'gap', fromSeq: 1, toSeq: 7 });
    expect(fresh.events.map((e) => lastSeqOf(e))).toEqual([7, 8, 9, 10]);
    expect(fresh.lastSeq).toBe(10);
    // Only the kept 300 bytes await an ack; the 700 lost ones are not waited for.
    expect(t.feed.unackedBytes('e', 'a')).toBe(300);
    expect(t.feed.consumedOffset('e', 'a')).toBe(700);

    // A renderer that had seen seqs 1–3 loses only 4–7.
    const behind = setup(1 << 20, 300);
    for (let i = 0; i < 10; i++) behind.append('a', 100);
    const partial = behind.feed.replay('e', 'a', behind.logs.get('a')!, 3);
    expect(partial.events[0]).toMatchObject({ kind: 'gap', fromSeq: 4, toSeq: 7 });
    expect(partial.events.slice(1).map((e) => lastSeqOf(e))).toEqual([8, 9, 10]);
    // …and one that is past the dropped part gets no gap at all.
    expect(behind.feed.replay('e', 'a', behind.logs.get('a')!, 8).events.map((e) => e.kind)).toEqual([
      'output',
      'output',
    ]);

    // Live output then continues after the tail, without a second gap.
    t.append('a', 100);
    await t.settle();
    expect(t.sent('a').map((e) => [e.kind, lastSeqOf(e)])).toEqual([['output', 11]]);
  });

  it('replays retained events and continues live strictly after them', async () => {
    const t = setup(1 << 20);
    for (let i = 0; i < 5; i++) t.append('a', 10);
    await t.settle();
    expect(t.sent('a')).toHaveLength(0);
    const replay = t.feed.replay('e', 'a', t.logs.get('a')!, 2);
    expect(replay.events.map((e) => lastSeqOf(e))).toEqual([3, 4, 5]);
    expect(replay.lastSeq).toBe(5);
    expect(t.feed.unackedBytes('e', 'a')).toBe(30);
    t.append('a', 10);
    await t.settle();
    expect(t.sent('a').map((e) => lastSeqOf(e))).toEqual([6]);
  });
});
