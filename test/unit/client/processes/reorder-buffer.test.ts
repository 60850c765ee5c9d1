// ReorderBuffer on its own: the count and byte bounds (exact at the edge), forced entries,
// duplicates, and that taking or dropping entries gives their room back.
import { describe, expect, it } from 'vitest';
import type { ReorderEntry } from '../../../../electron/client/processes/reorder-buffer';
import { ReorderBuffer } from '../../../../electron/client/processes/reorder-buffer';

/** An output entry whose base64 chunk decodes to exactly `bytes` bytes (a multiple of 3). */
const output = (seq: number, bytes: number): ReorderEntry => ({
  kind: 'output',
  seq,
  stream: 'stdout',
  chunk: Buffer.alloc(bytes, 120).toString('base64'),
});
const exited = (seq: number): ReorderEntry => ({ kind: 'exited', seq, exitCode: 0 });
const gap = (fromSeq: number, toSeq: number): ReorderEntry => ({ kind: 'gap', fromSeq, toSeq });

describe('ReorderBuffer bounds', () => {
  it('keeps exactly maxEvents entries and refuses the next one', () => {
    const buffer = new ReorderBuffer({ maxEvents: 3, maxBytes: 1_000 });
    expect([2, 3, 4].map((seq) => buffer.add(exited(seq)))).toEqual([true, true, true]);
    expect(buffer.add(exited(5))).toBe(false);
    expect(buffer.size).toBe(3);
    expect(buffer.has(5)).toBe(false);
  });

  it('keeps output up to exactly maxBytes (decoded) and refuses a byte more', () => {
    const buffer = new ReorderBuffer({ maxEvents: 100, maxBytes: 12 });
    expect(buffer.add(output(2, 6))).toBe(true);
    expect(buffer.add(output(3, 6))).toBe(true);
    expect(buffer.add(output(4, 3))).toBe(false);
    // Events without output bytes still fit: the byte bound is about output only.
    expect(buffer.add(exited(5))).toBe(true);
  });

  it('counts a chunk by its decoded size, not its base64 length', () => {
    const buffer = new ReorderBuffer({ maxEvents: 100, maxBytes: 12 });
    // 12 bytes are 16 base64 characters: it fits only when counted as 12.
    expect(buffer.add(output(2, 12))).toBe(true);
    const tight = new ReorderBuffer({ maxEvents: 100, maxBytes: 11 });
    expect(tight.add(output(2, 12))).toBe(false);
  });

  it('adds a forced entry beyond both bounds', () => {
    const buffer = new ReorderBuffer({ maxEvents: 1, maxBytes: 3 });
    expect(buffer.add(output(2, 3))).toBe(true);
    expect(buffer.add(output(3, 30), true)).toBe(true);
    expect(buffer.add(gap(4, 9), true)).toBe(true);
    expect(buffer.size).toBe(3);
    expect(buffer.take(3)).toEqual(output(3, 30));
  });
});

describe('ReorderBuffer entries', () => {
  it('treats a repeated seq as already kept, without counting it again', () => {
    const buffer = new ReorderBuffer({ maxEvents: 100, maxBytes: 6 });
    expect(buffer.add(output(2, 6))).toBe(true);
    expect(buffer.add(output(2, 6))).toBe(true);
    expect(buffer.size).toBe(1);
    // Were the repeat counted, a taken entry would leave 6 phantom bytes behind.
    buffer.take(2);
    expect(buffer.add(output(3, 6))).toBe(true);
  });

  it('keeps the first entry for a seq, even when full', () => {
    const buffer = new ReorderBuffer({ maxEvents: 1, maxBytes: 100 });
    buffer.add(exited(2));
    expect(buffer.add(output(2, 3))).toBe(true);
    expect(buffer.take(2)).toEqual(exited(2));
  });

  it('gives the room of a taken entry back', () => {
    const buffer = new ReorderBuffer({ maxEvents: 100, maxBytes: 6 });
    buffer.add(output(2, 6));
    expect(buffer.add(output(3, 3))).toBe(false);
    expect(buffer.take(2)).toEqual(output(2, 6));
    expect(buffer.take(2)).toBeUndefined();
    expect(buffer.has(2)).toBe(false);
    expect(buffer.add(output(3, 6))).toBe(true);
  });

  it('a take of an absent seq changes nothing', () => {
    const buffer = new ReorderBuffer({ maxEvents: 100, maxBytes: 6 });
    buffer.add(output(2, 3));
    expect(buffer.take(9)).toBeUndefined();
    expect(buffer.size).toBe(1);
    expect(buffer.add(output(3, 3))).toBe(true);
    expect(buffer.add(output(4, 3))).toBe(false);
  });

  it('finds entries by kind', () => {
    const buffer = new ReorderBuffer({ maxEvents: 100, maxBytes: 100 });
    expect(buffer.hasKind('gap')).toBe(false);
    buffer.add(output(3, 3));
    buffer.add(gap(5, 7));
    expect(buffer.hasKind('gap')).toBe(true);
    expect(buffer.hasKind('output')).toBe(true);
    expect(buffer.hasKind('exited')).toBe(false);
  });

  it('drops entries at or below a seq and frees their bytes', () => {
    const buffer = new ReorderBuffer({ maxEvents: 100, maxBytes: 9 });
    for (const seq of [3, 4, 5]) buffer.add(output(seq, 3));
    buffer.dropThrough(4);
    expect([3, 4, 5].map((seq) => buffer.has(seq))).toEqual([false, false, true]);
    expect(buffer.size).toBe(1);
    expect(buffer.add(output(6, 6))).toBe(true);
  });

  it('clear empties it and forgets the bytes', () => {
    const buffer = new ReorderBuffer({ maxEvents: 100, maxBytes: 6 });
    buffer.add(output(2, 6));
    buffer.clear();
    expect(buffer.size).toBe(0);
    expect(buffer.has(2)).toBe(false);
    expect(buffer.add(output(3, 6))).toBe(true);
  });
});
