import { describe, expect, it } from 'vitest';
import { OutputLog } from '../../../../electron/server/processes/output-log';

function logWith(sizes: number[], maxBytes = 1_000_000, maxChunks = 1_000): OutputLog {
  const log = new OutputLog(maxBytes, maxChunks);
  sizes.forEach((size, i) =>
    log.append({ seq: i + 1, stream: 'stdout', data: Buffer.alloc(size, 97), lease: null }),
  );
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
    for (let i = 1; i <= 4; i++) log.append({ seq: i, stream: 'pty', data: Buffer.alloc(4), lease: null });
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

describe('OutputLog with chunks in a ring', () => {
  /** Chunks that are views of one shared "ring", each with a lease recording its release. */
  function leasedLog(maxBytes: number) {
    const ring = Buffer.from(new SharedArrayBuffer(64));
    const released: number[] = [];
    const log = new OutputLog(maxBytes, 100);
    for (let i = 0; i < 4; i++) {
      const data = ring.subarray(i * 8, i * 8 + 8).fill(65 + i);
      log.append({ seq: i + 1, stream: 'stdout', data, lease: { release: () => released.push(i + 1) } });
    }
    return { ring, released, log };
  }

  it('hands back the ring space of each chunk it evicts, oldest first, and of no other', () => {
    const { released, log } = leasedLog(16);
    expect(released).toEqual([1, 2]);
    expect(seqs(log.select(0, null))).toEqual([3, 4]);
  });

  it('gives a reader copies that stay whole after the ring is written over', () => {
    const { ring, log } = leasedLog(64);
    const picked = log.select(1, null);
    ring.fill(0);
    expect(picked.map((c) => c.data.toString())).toEqual(['BBBBBBBB', 'CCCCCCCC', 'DDDDDDDD']);
    expect(picked.every((c) => c.lease === null)).toBe(true);
  });
});

describe('OutputLog leaving its rings', () => {
  it('keeps the retained bytes in memory of its own and hands the ring back whole', () => {
    const ring = Buffer.from(new SharedArrayBuffer(32));
    const log = new OutputLog(16, 100);
    const released: number[] = [];
    for (let i = 0; i < 4; i++) {
      const data = ring.subarray(i * 8, i * 8 + 8).fill(65 + i);
      log.append({ seq: i + 1, stream: 'stdout', data, lease: { release: () => released.push(i + 1) } });
    }
    log.detachFromRings();
    // Evicted ones went back as they left; the kept ones go back now, in order, the ring whole.
    expect(released).toEqual([1, 2, 3, 4]);
    ring.fill(0);
    const kept = log.select(0, null);
    expect(kept.map((c) => c.data.toString())).toEqual(['CCCCCCCC', 'DDDDDDDD']);
    expect(kept.every((c) => c.lease === null && !(c.data.buffer instanceof SharedArrayBuffer))).toBe(true);
  });
});
