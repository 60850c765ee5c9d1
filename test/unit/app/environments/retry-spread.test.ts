// The retries of one "network may be back" sign are spread over a window that grows with their
// number, so a fleet's handshakes do not reach its servers in the same instant.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  RETRY_SPREAD_MAX_MS,
  RetrySpreader,
  retryDelays,
} from '../../../../electron/app/environments/retry-spread';
import { seededRandom as seeded } from '../../../support/seeded-random';

describe('retryDelays', () => {
  it('retries one environment at once', () => {
    expect(retryDelays(1)).toEqual([0]);
    expect(retryDelays(0)).toEqual([]);
  });

  it('spreads a hundred over the whole window, no 100 ms holding more than a fifth of them', () => {
    const delays = retryDelays(100, seeded(7));
    expect(Math.max(...delays)).toBeLessThan(RETRY_SPREAD_MAX_MS);
    expect(Math.max(...delays)).toBeGreaterThan(RETRY_SPREAD_MAX_MS / 2);
    const perSlot = new Map<number, number>();
    for (const d of delays) perSlot.set(Math.floor(d / 100), (perSlot.get(Math.floor(d / 100)) ?? 0) + 1);
    expect(Math.max(...perSlot.values())).toBeLessThanOrEqual(20);
  });

  it('keeps a few close together: three within 40 ms', () => {
    for (const d of retryDelays(3, seeded(3))) expect(d).toBeLessThan(40);
  });
});

describe('RetrySpreader', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs every retry once, within the window, and a new sign replaces the waiting ones', () => {
    const spreader = new RetrySpreader(seeded(11));
    const ran: number[] = [];
    spreader.spread(Array.from({ length: 50 }, (_, i) => () => ran.push(i)));
    expect(ran.length).toBeLessThan(50);
    vi.advanceTimersByTime(RETRY_SPREAD_MAX_MS);
    expect([...ran].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));

    ran.length = 0;
    spreader.spread(Array.from({ length: 50 }, (_, i) => () => ran.push(i)));
    const before = ran.length;
    spreader.spread([() => ran.push(-1)]);
    vi.advanceTimersByTime(RETRY_SPREAD_MAX_MS);
    expect(ran.length).toBe(before + 1);
    expect(ran.at(-1)).toBe(-1);
    spreader.cancel();
  });
});
