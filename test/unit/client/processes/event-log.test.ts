// EventLog on its own: eviction by count and by bytes (the newest event always stays), the gap a
// late subscriber is shown for evicted seqs, and that memory stays bounded over a long run.
import { describe, expect, it } from 'vitest';
import type { ProcessEvent } from '../../../../electron/client/api';
import { EventLog, lastSeqOf } from '../../../../electron/client/processes/event-log';

const output = (seq: number, bytes = 1): ProcessEvent => ({
  kind: 'output',
  seq,
  stream: 'stdout',
  data: new Uint8Array(bytes),
});
const seqsOf = (events: ProcessEvent[]): Array<number | string> =>
  events.map((e) =>
    e.kind === 'gap' ? `gap ${e.fromSeq}-${e.toSeq}` : e.kind === 'failed' ? 'failed' : e.seq,
  );

describe('lastSeqOf', () => {
  it('is the seq, the end of a gap, or null for a failure', () => {
    expect(lastSeqOf(output(4))).toBe(4);
    expect(lastSeqOf({ kind: 'exited', seq: 5, exitCode: 1 })).toBe(5);
    expect(lastSeqOf({ kind: 'gap', fromSeq: 2, toSeq: 9, at: 0 })).toBe(9);
    expect(lastSeqOf({ kind: 'failed', message: 'x' })).toBeNull();
  });
});

describe('EventLog retention', () => {
  it('keeps the newest maxEvents events', () => {
    const log = new EventLog({ maxEvents: 3, maxBytes: 1_000 });
    for (let seq = 1; seq <= 5; seq++) log.append(output(seq));
    expect(seqsOf(log.replay())).toEqual([3, 4, 5]);
  });

  it('keeps output up to exactly maxBytes and evicts the oldest beyond', () => {
    const log = new EventLog({ maxEvents: 100, maxBytes: 10 });
    log.append(output(1, 4));
    log.append(output(2, 6));
    expect(seqsOf(log.replay())).toEqual([1, 2]);
    log.append(output(3, 1));
    expect(seqsOf(log.replay())).toEqual([2, 3]);
  });

  it('frees the bytes of what it evicts', () => {
    const log = new EventLog({ maxEvents: 100, maxBytes: 10 });
    for (let seq = 1; seq <= 10; seq++) log.append(output(seq, 5));
    // Two 5-byte events fit; a log that forgot to subtract would keep only the newest.
    expect(seqsOf(log.replay())).toEqual([9, 10]);
  });

  it('always keeps the newest event, even one over the byte bound', () => {
    const log = new EventLog({ maxEvents: 100, maxBytes: 10 });
    log.append(output(1, 4));
    log.append(output(2, 50));
    expect(seqsOf(log.replay())).toEqual([2]);
    log.append({ kind: 'exited', seq: 3, exitCode: 0 });
    // The oversized event still counts until it is evicted.
    expect(seqsOf(log.replay())).toEqual([3]);
  });

  it('does not count non-output events against the byte bound', () => {
    const log = new EventLog({ maxEvents: 100, maxBytes: 2 });
    log.append(output(1, 2));
    log.append({ kind: 'exited', seq: 2, exitCode: 0 });
    log.append({ kind: 'closed', seq: 3 });
    expect(seqsOf(log.replay())).toEqual([1, 2, 3]);
  });

  it('clear forgets events and bytes', () => {
    const log = new EventLog({ maxEvents: 100, maxBytes: 4 });
    log.append(output(1, 4));
    log.clear();
    expect(log.replay()).toEqual([]);
    log.append(output(2, 4));
    expect(seqsOf(log.replay())).toEqual([2]);
  });

  it('stays correct and bounded in memory over a long run', () => {
    const log = new EventLog({ maxEvents: 10, maxBytes: 1_000_000 });
    for (let seq = 1; seq <= 20_000; seq++) log.append(output(seq));
    expect(seqsOf(log.replay())).toEqual(Array.from({ length: 10 }, (_, i) => 19_991 + i));
    // The backing array is compacted: it never holds much more than the evicted-index threshold.
    expect(log['log']['items'].length).toBeLessThan(2_100);
  });
});

describe('EventLog replay', () => {
  it('replays events after a seq, failures always', () => {
    const log = new EventLog({ maxEvents: 100, maxBytes: 1_000 });
    for (let seq = 1; seq <= 4; seq++) log.append(output(seq));
    log.append({ kind: 'failed', message: 'client closed' });
    expect(seqsOf(log.replay(2))).toEqual([3, 4, 'failed']);
    expect(seqsOf(log.replay(4))).toEqual(['failed']);
  });

  it('replays a gap by its last seq', () => {
    const log = new EventLog({ maxEvents: 100, maxBytes: 1_000 });
    log.append(output(1));
    log.append({ kind: 'gap', fromSeq: 2, toSeq: 5, at: 0 });
    log.append(output(6));
    expect(seqsOf(log.replay(3))).toEqual(['gap 2-5', 6]);
    expect(seqsOf(log.replay(5))).toEqual([6]);
  });

  it('puts a gap first for seqs it already evicted, and only for those', () => {
    const log = new EventLog({ maxEvents: 2, maxBytes: 1_000 });
    for (let seq = 1; seq <= 5; seq++) log.append(output(seq));
    expect(seqsOf(log.replay(0))).toEqual(['gap 1-3', 4, 5]);
    expect(seqsOf(log.replay(2))).toEqual(['gap 3-3', 4, 5]);
    expect(seqsOf(log.replay(3))).toEqual([4, 5]);
    expect(seqsOf(log.replay())).toEqual([4, 5]);
  });

  it('marks the evicted range up to the end of an evicted gap', () => {
    const log = new EventLog({ maxEvents: 1, maxBytes: 1_000 });
    log.append({ kind: 'gap', fromSeq: 1, toSeq: 7, at: 0 });
    log.append(output(8));
    expect(seqsOf(log.replay(0))).toEqual(['gap 1-7', 8]);
  });
});
