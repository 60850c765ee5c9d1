import { describe, expect, it } from 'vitest';
import { WriteDedup, writeDigest } from '../../../../electron/server/processes/write-dedup';

const X = writeDigest(Buffer.from('x'));
const Y = writeDigest(Buffer.from('y'));

/** A dedup that remembers each id with the bytes 'x'. */
function remembering(window: number, ids: string[]): WriteDedup {
  const dedup = new WriteDedup(window);
  for (const id of ids) dedup.remember(id, X);
  return dedup;
}

describe('WriteDedup', () => {
  it('remembers the last N ids and forgets older ones in FIFO order', () => {
    const dedup = remembering(3, ['a', 'b', 'c']);
    expect(dedup.isResend('a', X)).toBe(true);
    dedup.remember('d', X);
    expect(dedup.isResend('a', X)).toBe(false);
    expect(['b', 'c', 'd'].every((id) => dedup.isResend(id, X))).toBe(true);
  });

  it('does not count a repeated id twice', () => {
    const dedup = remembering(2, ['a', 'a', 'b']);
    expect(dedup.isResend('a', X)).toBe(true);
  });

  it('is a resend only with the same bytes; the id reused with other bytes replaces the old entry', () => {
    const dedup = remembering(2, ['a']);
    expect(dedup.isResend('a', Y)).toBe(false);
    dedup.remember('a', Y);
    expect([dedup.isResend('a', Y), dedup.isResend('a', X)]).toEqual([true, false]);
    // The reused id counts as the newest write: 'b' evicts only the first 'a', which changes nothing.
    dedup.remember('b', X);
    expect(dedup.isResend('a', Y)).toBe(true);
    dedup.remember('c', X);
    expect([dedup.isResend('a', Y), dedup.isResend('b', X), dedup.isResend('c', X)]).toEqual([
      false,
      true,
      true,
    ]);
  });

  it('digests equal bytes equally and different bytes differently', () => {
    expect(writeDigest(Buffer.from('x'))).toBe(X);
    expect(writeDigest(new Uint8Array(0))).not.toBe(X);
    expect(writeDigest(Buffer.alloc(1 << 20, 1))).not.toBe(writeDigest(Buffer.alloc(1 << 20, 2)));
    expect(writeDigest(Buffer.alloc(1 << 20, 1))).toBe(writeDigest(Buffer.alloc(1 << 20, 1)));
    // Either side of the length kept verbatim, bytes that differ only at the end, and views into
    // a larger buffer (a data frame's payload) digest by their own bytes.
    for (const length of [16, 17]) {
      const a = Buffer.alloc(length, 'k');
      const b = Buffer.from(a);
      b[length - 1] = 0x6c;
      expect(writeDigest(a)).not.toBe(writeDigest(b));
      const frame = Buffer.concat([Buffer.from('head'), a, Buffer.from('tail')]);
      expect(writeDigest(frame.subarray(4, 4 + length))).toBe(writeDigest(a));
    }
  });

  it('stays correct over many ids', () => {
    const dedup = remembering(
      4096,
      Array.from({ length: 10_000 }, (_, i) => `w${i}`),
    );
    expect(dedup.isResend('w5903', X)).toBe(false);
    expect(dedup.isResend('w5904', X)).toBe(true);
    expect(dedup.isResend('w9999', X)).toBe(true);
  });

  it('keeps exactly `window` ids: the next one evicts only the oldest', () => {
    const dedup = remembering(2, ['a', 'b']);
    expect(dedup.isResend('a', X) && dedup.isResend('b', X)).toBe(true);
    dedup.remember('c', X);
    expect([dedup.isResend('a', X), dedup.isResend('b', X), dedup.isResend('c', X)]).toEqual([
      false,
      true,
      true,
    ]);
  });

  it('keeps its id list bounded over a long run (no leak per write)', () => {
    const dedup = remembering(
      16,
      Array.from({ length: 20_000 }, (_, i) => `w${i}`),
    );
    expect(dedup.isResend('w19983', X)).toBe(false);
    expect(dedup.isResend('w19984', X)).toBe(true);
    expect(dedup['order'].length).toBeLessThan(2_100);
  });
});
