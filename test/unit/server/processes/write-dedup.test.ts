import { describe, expect, it } from 'vitest';
import { WriteDedup } from '../../../../electron/server/processes/write-dedup';

describe('WriteDedup', () => {
  it('remembers the last N ids and forgets older ones in FIFO order', () => {
    const dedup = new WriteDedup(3);
    for (const id of ['a', 'b', 'c']) dedup.remember(id);
    expect(dedup.has('a')).toBe(true);
    dedup.remember('d');
    expect(dedup.has('a')).toBe(false);
    expect(['b', 'c', 'd'].every((id) => dedup.has(id))).toBe(true);
  });

  it('does not count a repeated id twice', () => {
    const dedup = new WriteDedup(2);
    dedup.remember('a');
    dedup.remember('a');
    dedup.remember('b');
    expect(dedup.has('a')).toBe(true);
  });

  it('stays correct over many ids', () => {
    const dedup = new WriteDedup(4096);
    for (let i = 0; i < 10_000; i++) dedup.remember(`w${i}`);
    expect(dedup.has('w5903')).toBe(false);
    expect(dedup.has('w5904')).toBe(true);
    expect(dedup.has('w9999')).toBe(true);
  });

  it('keeps exactly `window` ids: the next one evicts only the oldest', () => {
    const dedup = new WriteDedup(2);
    dedup.remember('a');
    dedup.remember('b');
    expect(dedup.has('a') && dedup.has('b')).toBe(true);
    dedup.remember('c');
    expect([dedup.has('a'), dedup.has('b'), dedup.has('c')]).toEqual([false, true, true]);
  });

  it('keeps its id list bounded over a long run (no leak per write)', () => {
    const dedup = new WriteDedup(16);
    for (let i = 0; i < 20_000; i++) dedup.remember(`w${i}`);
    expect(dedup.has('w19983')).toBe(false);
    expect(dedup.has('w19984')).toBe(true);
    expect(dedup['order'].length).toBeLessThan(2_100);
  });
});
