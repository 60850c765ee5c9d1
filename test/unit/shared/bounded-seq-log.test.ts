import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BoundedSeqLog, type BoundedSeqLogOptions } from '../../../shared/bounded-seq-log';

// A full collection on demand, to see what the log still keeps reachable.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

interface Item {
  seq: number | null;
  bytes: number;
}

function logOf(options: Partial<BoundedSeqLogOptions<Item>> = {}) {
  const evicted: Item[] = [];
  const log = new BoundedSeqLog<Item>({
    seqOf: (item) => item.seq,
    sizeOf: (item) => item.bytes,
    maxBytes: 1_000,
    maxItems: 1_000,
    keepNewest: false,
    onEvict: (item) => evicted.push(item),
    ...options,
  });
  const append = (seq: number | null, bytes = 1) => log.append({ seq, bytes });
  const seqs = (afterSeq: number) => [...log.after(afterSeq)].map((item) => item.seq);
  return { log, evicted, append, seqs };
}

describe('BoundedSeqLog', () => {
  it('returns exactly the items above a seq, at every cut point', () => {
    const { append, seqs } = logOf();
    for (const seq of [1, 2, 3, 5, 8]) append(seq);
    expect(seqs(-Infinity)).toEqual([1, 2, 3, 5, 8]);
    expect(seqs(0)).toEqual([1, 2, 3, 5, 8]);
    expect(seqs(1)).toEqual([2, 3, 5, 8]);
    expect(seqs(3)).toEqual([5, 8]);
    expect(seqs(4)).toEqual([5, 8]);
    expect(seqs(7)).toEqual([8]);
    expect(seqs(8)).toEqual([]);
    expect(seqs(100)).toEqual([]);
  });

  it('finds nothing in an empty log, and nothing is evicted from it', () => {
    const { log, seqs } = logOf();
    expect(seqs(0)).toEqual([]);
    expect(log.evictOldest()).toBeUndefined();
    expect([log.length, log.retainedBytes, log.evictedThroughSeq]).toEqual([0, 0, 0]);
  });

  it('evicts the oldest beyond the count bound and remembers the highest seq it evicted', () => {
    const { log, evicted, append, seqs } = logOf({ maxItems: 3 });
    for (let seq = 1; seq <= 3; seq++) append(seq);
    expect(log.evictedThroughSeq).toBe(0);
    append(4);
    expect(seqs(0)).toEqual([2, 3, 4]);
    expect(evicted.map((item) => item.seq)).toEqual([1]);
    expect(log.evictedThroughSeq).toBe(1);
    expect(log.length).toBe(3);
  });

  it('evicts beyond the byte bound, keeping it exactly at the bound', () => {
    const { log, append, seqs } = logOf({ maxBytes: 100 });
    for (let seq = 1; seq <= 4; seq++) append(seq, 25);
    expect([seqs(0), log.retainedBytes]).toEqual([[1, 2, 3, 4], 100]);
    append(5, 25);
    expect([seqs(0), log.retainedBytes, log.evictedThroughSeq]).toEqual([[2, 3, 4, 5], 100, 1]);
    append(6, 60);
    expect([seqs(0), log.retainedBytes, log.evictedThroughSeq]).toEqual([[5, 6], 85, 4]);
  });

  it('drops an item larger than the bound unless it keeps the newest', () => {
    const dropping = logOf({ maxBytes: 10 });
    dropping.append(1, 50);
    expect([dropping.seqs(0), dropping.log.retainedBytes, dropping.log.evictedThroughSeq]).toEqual([
      [],
      0,
      1,
    ]);

    const keeping = logOf({ maxBytes: 10, maxItems: 3, keepNewest: true });
    keeping.append(1, 5);
    keeping.append(2, 50);
    expect([keeping.seqs(0), keeping.log.retainedBytes, keeping.log.evictedThroughSeq]).toEqual([[2], 50, 1]);
    expect(keeping.log.evictOldest()).toBeUndefined();
    expect(keeping.seqs(0)).toEqual([2]);
  });

  it('evicts on request down to, but not past, what it must keep', () => {
    const { log, append, seqs } = logOf({ keepNewest: true });
    for (let seq = 1; seq <= 3; seq++) append(seq, 10);
    expect(log.evictOldest()).toEqual({ seq: 1, bytes: 10 });
    expect(log.evictOldest()).toEqual({ seq: 2, bytes: 10 });
    expect(log.evictOldest()).toBeUndefined();
    expect([seqs(0), log.retainedBytes, log.evictedThroughSeq]).toEqual([[3], 10, 2]);
  });

  it('takes a range item at its last seq, for search and for what it evicted', () => {
    // A gap covering 2..6 is stamped 6: a reader after 4 still gets it, one after 6 does not.
    const { log, append, seqs } = logOf({ maxItems: 2 });
    append(1);
    append(6);
    append(7);
    expect(seqs(4)).toEqual([6, 7]);
    expect(seqs(6)).toEqual([7]);
    append(8);
    expect(log.evictedThroughSeq).toBe(6);
  });

  it('always returns a trailing item without a seq, and never counts it as evicted', () => {
    const { log, append, seqs } = logOf({ maxItems: 3 });
    append(1);
    append(2);
    append(null);
    expect(seqs(0)).toEqual([1, 2, null]);
    expect(seqs(2)).toEqual([null]);
    expect(seqs(1_000_000)).toEqual([null]);
    log.evictOldest();
    log.evictOldest();
    log.evictOldest();
    expect([log.length, log.evictedThroughSeq]).toEqual([0, 2]);
  });

  it('raises its byte bound but never lowers it', () => {
    const { log, append, seqs } = logOf({ maxBytes: 20 });
    log.raiseMaxBytes(40);
    log.raiseMaxBytes(10);
    for (let seq = 1; seq <= 5; seq++) append(seq, 10);
    expect(seqs(0)).toEqual([2, 3, 4, 5]);
  });

  it('lowers its byte bound on request, evicting down to it, but never raises it that way', () => {
    const { log, evicted, append, seqs } = logOf({ maxBytes: 50 });
    for (let seq = 1; seq <= 5; seq++) append(seq, 10);
    log.lowerMaxBytes(25);
    expect([seqs(0), evicted.map((item) => item.seq), log.evictedThroughSeq]).toEqual([[4, 5], [1, 2, 3], 3]);
    log.lowerMaxBytes(100);
    append(6, 10);
    expect(seqs(0)).toEqual([5, 6]);
  });

  it('stays correct across compaction, and keeps its array bounded over a long run', () => {
    const { log, evicted, append, seqs } = logOf({ maxItems: 50 });
    for (let seq = 1; seq <= 5_000; seq++) {
      append(seq);
      // The search must see the same window before and after each compaction.
      if (seq % 997 === 0 || seq === 1_075 || seq === 1_076) {
        expect(seqs(0)).toEqual(
          Array.from({ length: Math.min(seq, 50) }, (_, i) => Math.max(seq - 50, 0) + i + 1),
        );
        expect(seqs(seq - 10)).toHaveLength(10);
      }
    }
    expect(seqs(4_990)).toEqual(Array.from({ length: 10 }, (_, i) => 4_991 + i));
    expect([log.length, log.evictedThroughSeq, evicted.length]).toEqual([50, 4_950, 4_950]);
    expect(log['items'].length).toBeLessThan(2_100);
  });

  it('forgets everything on clear, without counting it as evicted', () => {
    const { log, evicted, append, seqs } = logOf({ maxItems: 2 });
    for (let seq = 1; seq <= 3; seq++) append(seq, 10);
    log.clear();
    expect([seqs(0), log.length, log.retainedBytes, log.evictedThroughSeq, evicted.length]).toEqual([
      [],
      0,
      0,
      1,
      1,
    ]);
    append(4, 10);
    expect(seqs(0)).toEqual([4]);
  });

  it('lets go of an evicted item at once, long before its slot is compacted away', async () => {
    // No onEvict here: nothing but the log may hold the items.
    const log = new BoundedSeqLog<Item & { data: Uint8Array }>({
      seqOf: (item) => item.seq,
      sizeOf: (item) => item.bytes,
      maxBytes: 1_000,
      maxItems: 2,
      keepNewest: false,
    });
    const refs: Array<WeakRef<Item>> = [];
    for (let seq = 1; seq <= 5; seq++) {
      const item = { seq, bytes: 1, data: new Uint8Array(1_024) };
      refs.push(new WeakRef(item));
      log.append(item);
    }
    // A WeakRef holds its target until the current job ends.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    expect(refs.map((ref) => ref.deref()?.seq ?? null)).toEqual([null, null, null, 4, 5]);
  });
});
