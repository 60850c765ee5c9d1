import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { OutputLogCap, ProcessLog } from '../../../../electron/app/processes/process-log';
import { OWN_SLAB_BYTES, SLAB_MAX_BYTES } from '../../../../electron/app/processes/output-slabs';
import { lastSeqOf } from '../../../../shared/ipc';

const output = (seq: number, bytes: number) => ({
  event: {
    kind: 'output' as const,
    seq,
    stream: 'stdout' as const,
    data: Buffer.alloc(bytes),
  },
  bytes,
});

describe('ProcessLog', () => {
  it('keeps events in order and reads after a seq', () => {
    const log = new ProcessLog(1000, 100);
    for (let seq = 1; seq <= 5; seq++) log.append(output(seq, 10).event, 10);
    expect([...log.after(2)].map((e) => lastSeqOf(e.event))).toEqual([3, 4, 5]);
    expect([...log.after(5)]).toEqual([]);
    expect(log.totalBytes).toBe(50);
    expect([...log.after(0)].map((e) => e.endOffset)).toEqual([10, 20, 30, 40, 50]);
  });

  it('drops the oldest events beyond the byte bound and says through which seq', () => {
    const log = new ProcessLog(100, 1000);
    for (let seq = 1; seq <= 20; seq++) log.append(output(seq, 30).event, 30);
    const kept = [...log.after(0)].map((e) => lastSeqOf(e.event));
    expect(kept).toEqual([18, 19, 20]);
    expect(log.evictedThroughSeq).toBe(17);
    expect(log.evictedThroughOffset).toBe(17 * 30);
    expect(log.totalBytes).toBe(600);
  });

  it('drops beyond the event bound too, but always keeps the newest event', () => {
    const log = new ProcessLog(10, 3);
    for (let seq = 1; seq <= 10; seq++) log.append({ kind: 'exited', seq, exitCode: 0 }, 0);
    expect([...log.after(0)].map((e) => lastSeqOf(e.event))).toEqual([8, 9, 10]);
    const big = new ProcessLog(10, 3);
    big.append(output(1, 50).event, 50);
    expect([...big.after(0)].map((e) => lastSeqOf(e.event))).toEqual([1]);
  });

  it('stays correct across internal compaction', () => {
    const log = new ProcessLog(50, 100_000);
    for (let seq = 1; seq <= 5000; seq++) log.append(output(seq, 1).event, 1);
    expect([...log.after(0)].map((e) => lastSeqOf(e.event))).toEqual(
      Array.from({ length: 50 }, (_, i) => 4951 + i),
    );
    expect([...log.after(4990)].length).toBe(10);
  });

  it('keeps its entry list bounded in memory over a long run', () => {
    const log = new ProcessLog(1_000_000, 10);
    for (let seq = 1; seq <= 20_000; seq++) log.append({ kind: 'exited', seq, exitCode: 0 }, 0);
    expect([...log.after(0)].map((e) => lastSeqOf(e.event))).toEqual(
      Array.from({ length: 10 }, (_, i) => 19_991 + i),
    );
    expect(log['log']['items'].length).toBeLessThan(2_100);
  });
});

describe('OutputLogCap', () => {
  const seqs = (log: ProcessLog) => [...log.after(0)].map((e) => lastSeqOf(e.event));

  it("bounds every log together, taking the app's oldest output first, whichever process has it", () => {
    const cap = new OutputLogCap(100);
    const a = new ProcessLog(1000, 1000, cap);
    const b = new ProcessLog(1000, 1000, cap);
    for (let seq = 1; seq <= 3; seq++) a.append(output(seq, 20).event, 20);
    for (let seq = 1; seq <= 2; seq++) b.append(output(seq, 20).event, 20);
    expect(cap.retainedBytes).toBe(100);
    // One more byte over the cap: a's seq 1 is the oldest output of all, so it goes.
    b.append(output(3, 20).event, 20);
    expect(seqs(a)).toEqual([2, 3]);
    expect(a.evictedThroughSeq).toBe(1);
    expect(seqs(b)).toEqual([1, 2, 3]);
    b.append(output(4, 40).event, 40);
    // a's 2 and 3 are older than anything of b's.
    expect(seqs(a)).toEqual([3]);
    expect(seqs(b)).toEqual([2, 3, 4]);
    expect(cap.retainedBytes).toBeLessThanOrEqual(100);
  });

  it("never takes a log's newest event, and forgets a released log", () => {
    const cap = new OutputLogCap(10);
    const a = new ProcessLog(1000, 1000, cap);
    a.append(output(1, 50).event, 50);
    expect(seqs(a)).toEqual([1]);
    a.release();
    expect(cap.retainedBytes).toBe(0);
    const b = new ProcessLog(1000, 1000, cap);
    b.append(output(1, 5).event, 5);
    b.append(output(2, 5).event, 5);
    expect(seqs(b)).toEqual([1, 2]);
  });
});

describe('ProcessLog output slabs', () => {
  /** Chunk `seq` of `size` bytes, every byte telling its seq and position apart. */
  const chunk = (seq: number, size: number) =>
    Uint8Array.from({ length: size }, (_, i) => (seq * 31 + i) & 0xff);
  const outputOf = (seq: number, size: number) => ({
    kind: 'output' as const,
    seq,
    stream: 'pty' as const,
    data: chunk(seq, size),
  });
  const dataOf = (entry: { event: { kind: string; data?: Uint8Array } }) => entry.event.data!;
  /** The chunks' lengths and bytes, compared in one go (element-wise matching is slow). */
  const bytesOf = (chunks: Uint8Array[]) => ({
    lengths: chunks.map((c) => c.byteLength),
    hash: createHash('sha256').update(Buffer.concat(chunks)).digest('hex'),
  });

  it('packs small chunks into a few shared buffers, and reads each back exactly', () => {
    const log = new ProcessLog(10 * SLAB_MAX_BYTES, 100_000);
    const sizes = Array.from({ length: 400 }, (_, i) => 1 + ((i * 977) % 3000));
    sizes.forEach((size, i) => log.append(outputOf(i + 1, size), size));
    const entries = [...log.after(0)];
    expect(bytesOf(entries.map((e) => dataOf(e)))).toEqual(
      bytesOf(sizes.map((size, i) => chunk(i + 1, size))),
    );
    const total = sizes.reduce((a, b) => a + b, 0);
    // The chunks are in slabs, not a buffer each: about total / SLAB_MAX_BYTES of them.
    const buffers = new Set(entries.map((e) => dataOf(e).buffer));
    expect(buffers.size).toBeLessThanOrEqual(Math.ceil(total / SLAB_MAX_BYTES) + 1);
    // Reads from the middle of a slab on, across every slab boundary after it.
    expect(bytesOf([...log.after(123)].map((e) => dataOf(e)))).toEqual(
      bytesOf(sizes.slice(123).map((s, i) => chunk(i + 124, s))),
    );
  });

  it('keeps the bytes of what it retains while eviction crosses slab boundaries', () => {
    const size = 1000;
    const log = new ProcessLog(3 * SLAB_MAX_BYTES, 100_000);
    const count = 1000;
    for (let seq = 1; seq <= count; seq++) log.append(outputOf(seq, size), size);
    const kept = [...log.after(0)];
    const first = count - kept.length + 1;
    expect(kept.length).toBe(Math.floor((3 * SLAB_MAX_BYTES) / size));
    expect(log.evictedThroughSeq).toBe(first - 1);
    expect(log.evictedThroughOffset).toBe((first - 1) * size);
    expect(bytesOf(kept.map((e) => dataOf(e)))).toEqual(bytesOf(kept.map((_, i) => chunk(first + i, size))));
    expect(kept.map((e) => e.endOffset)).toEqual(kept.map((_, i) => (first + i) * size));
  });

  it('gives back the unused tail of a slab it leaves early, keeping its bytes', () => {
    const log = new ProcessLog(10 * SLAB_MAX_BYTES, 1000);
    // Small chunks until the room left is just short of the biggest chunk that is still packed.
    const big = OWN_SLAB_BYTES - 1;
    const small = Math.ceil((SLAB_MAX_BYTES - big + 1) / 1000);
    const sizes = [...Array.from({ length: small }, () => 1000), big, 10];
    sizes.forEach((size, i) => log.append(outputOf(i + 1, size), size));
    const data = [...log.after(0)].map((e) => dataOf(e));
    expect(bytesOf(data)).toEqual(bytesOf(sizes.map((size, i) => chunk(i + 1, size))));
    // The first slab could not take the big chunk: it was cut down to what it holds.
    expect(data[0]!.buffer.byteLength).toBe(small * 1000);
    expect(data[small]!.buffer).toBe(data[small + 1]!.buffer);
    expect(data[small]!.buffer).not.toBe(data[0]!.buffer);
  });

  it('gives back the room left in its slab once the process has ended', () => {
    const log = new ProcessLog(10 * SLAB_MAX_BYTES, 1000);
    for (let seq = 1; seq <= 40; seq++) log.append(outputOf(seq, 1000), 1000);
    log.append({ kind: 'exited', seq: 41, exitCode: 0 }, 0);
    const data = [...log.after(0)].flatMap((e) => (e.event.kind === 'output' ? [e.event.data] : []));
    expect(data[0]!.buffer.byteLength).toBe(40_000);
    expect(bytesOf(data)).toEqual(bytesOf(data.map((_, i) => chunk(i + 1, 1000))));
  });

  it('keeps a big chunk as it is and packs the small ones around it', () => {
    const log = new ProcessLog(10 * SLAB_MAX_BYTES, 1000);
    const big = outputOf(2, SLAB_MAX_BYTES);
    log.append(outputOf(1, 10), 10);
    log.append(big, big.data.byteLength);
    log.append(outputOf(3, 10), 10);
    const [a, b, c] = [...log.after(0)].map((e) => dataOf(e));
    expect(b!.buffer).toBe(big.data.buffer);
    expect(a!.buffer).toBe(c!.buffer);
    expect([a, c]).toEqual([chunk(1, 10), chunk(3, 10)]);
  });

  it('counts slab-held output against the cap, evicting across logs and slabs alike', () => {
    const cap = new OutputLogCap(2 * SLAB_MAX_BYTES);
    const a = new ProcessLog(10 * SLAB_MAX_BYTES, 100_000, cap);
    const b = new ProcessLog(10 * SLAB_MAX_BYTES, 100_000, cap);
    // Twice the cap in all, each log over several slabs.
    for (let seq = 1; seq <= (4 * SLAB_MAX_BYTES) / 1000; seq++) {
      a.append(outputOf(seq, 500), 500);
      b.append(outputOf(seq, 500), 500);
    }
    expect(cap.retainedBytes).toBeLessThanOrEqual(2 * SLAB_MAX_BYTES);
    expect(Math.min(a.evictedThroughSeq, b.evictedThroughSeq)).toBeGreaterThan(0);
    for (const log of [a, b]) {
      const kept = [...log.after(0)];
      expect(kept[0]!.event.kind === 'output' && kept[0]!.event.seq).toBe(log.evictedThroughSeq + 1);
      expect(bytesOf(kept.map((e) => dataOf(e)))).toEqual(
        bytesOf(kept.map((_, i) => chunk(log.evictedThroughSeq + 1 + i, 500))),
      );
    }
  });

  it('keeps non-output events in order between packed chunks', () => {
    const log = new ProcessLog(1000, 1000);
    log.append(outputOf(1, 5), 5);
    log.append({ kind: 'gap', fromSeq: 2, toSeq: 4, at: 1 }, 0);
    log.append(outputOf(5, 5), 5);
    log.append({ kind: 'exited', seq: 6, exitCode: 0 }, 0);
    expect([...log.after(0)].map((e) => e.event)).toEqual([
      outputOf(1, 5),
      { kind: 'gap', fromSeq: 2, toSeq: 4, at: 1 },
      outputOf(5, 5),
      { kind: 'exited', seq: 6, exitCode: 0 },
    ]);
    expect([...log.after(4)].map((e) => lastSeqOf(e.event))).toEqual([5, 6]);
  });
});
