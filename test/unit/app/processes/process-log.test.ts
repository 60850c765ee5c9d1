import { describe, expect, it } from 'vitest';
import { OutputLogCap, ProcessLog } from '../../../../electron/app/processes/process-log';
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
