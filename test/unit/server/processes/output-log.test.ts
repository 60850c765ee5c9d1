import { describe, expect, it } from 'vitest';
import { OutputLog } from '../../../../electron/server/processes/output-log';

function logWith(sizes: number[], maxBytes = 1_000_000, maxChunks = 1_000): OutputLog {
  const log = new OutputLog(maxBytes, maxChunks);
  sizes.forEach((size, i) => log.append({ seq: i + 1, stream: 'stdout', data: Buffer.alloc(size, 97) }));
  return log;
}

const seqs = (chunks: { seq: number }[]): number[] => chunks.map((c) => c.seq);

describe('OutputLog selection', () => {
  it('returns chunks after afterSeq, in order, all of them without maxBytes', () => {
    expect(seqs(logWith([3, 3, 3]).select(1, null))).toEqual([2, 3]);
    expect(seqs(logWith([3, 3, 3]).select(3, null))).toEqual([]);
  });

  it('always returns the first chunk whole, even over maxBytes (0 and 1 included)', () => {
    expect(seqs(logWith([10, 1]).select(0, 0))).toEqual([1]);
    expect(seqs(logWith([10, 1]).select(0, 1))).toEqual([1]);
  });

  it('adds chunks only while the total stays within maxBytes and never splits them', () => {
    expect(seqs(logWith([4, 4, 4]).select(0, 9))).toEqual([1, 2]);
    expect(seqs(logWith([4, 4, 4]).select(0, 8))).toEqual([1, 2]);
    expect(seqs(logWith([4, 6, 1]).select(0, 9))).toEqual([1]);
  });
});

describe('OutputLog retention', () => {
  it('evicts the oldest chunks beyond the byte bound', () => {
    const log = logWith([4, 4, 4, 4], 8);
    expect(log.retainedBytes).toBe(8);
    expect(seqs(log.select(0, null))).toEqual([3, 4]);
  });

  it('evicts the oldest chunks beyond the chunk bound', () => {
    const log = logWith(
      Array.from({ length: 3000 }, () => 1),
      1_000_000,
      1000,
    );
    const kept = log.select(0, null);
    expect(kept).toHaveLength(1000);
    expect(kept[0]!.seq).toBe(2001);
  });

  it('ensureCapacity raises the byte bound', () => {
    const log = new OutputLog(4, 100);
    log.ensureCapacity(12);
    for (let i = 1; i <= 4; i++) log.append({ seq: i, stream: 'pty', data: Buffer.alloc(4) });
    expect(seqs(log.select(0, null))).toEqual([2, 3, 4]);
  });

  it('stays correct and bounded in memory over a long run', () => {
    const log = logWith(
      Array.from({ length: 20_000 }, () => 1),
      10,
      1_000,
    );
    expect(seqs(log.select(0, null))).toEqual(Array.from({ length: 10 }, (_, i) => 19_991 + i));
    expect(log.retainedChunks).toBe(10);
    expect(log['log']['items'].length).toBeLessThan(2_100);
  });
});
