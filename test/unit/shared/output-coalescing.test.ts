// The coalescing decision alone, on a clock the test sets: a quiet arrival leaves at once, a busy
// one waits (delayMs, or what is left of maxIntervalMs since the last flush), a full batch leaves.
import { describe, expect, it } from 'vitest';
import { OutputCoalescer } from '../../../shared/output-coalescing';

const server = { quietMs: 0.25, maxBytes: 64, delayMs: 1 };

describe('OutputCoalescer', () => {
  it('sends the first arrival at once and one after a quiet spell at once', () => {
    const coalescer = new OutputCoalescer(server);
    expect(coalescer.arrive(1000, 1)).toBe(0);
    expect(coalescer.arrive(1000.5, 1)).toBe(0);
  });

  it('lets an arrival within the quiet time wait delayMs', () => {
    const coalescer = new OutputCoalescer(server);
    coalescer.arrive(1000, 1);
    expect(coalescer.arrive(1000.125, 2)).toBe(1);
    // Exactly quietMs after the previous arrival is still busy (the spell must be longer), and
    // quiet is measured from the previous arrival, not from the first of the batch.
    expect(coalescer.arrive(1000.375, 3)).toBe(1);
    expect(coalescer.arrive(1000.5, 4)).toBe(1);
  });

  it('sends a busy batch at once when it reaches maxBytes', () => {
    const coalescer = new OutputCoalescer(server);
    coalescer.arrive(1000, 10);
    expect(coalescer.arrive(1000.1, 63)).toBe(1);
    expect(coalescer.arrive(1000.2, 64)).toBe(0);
    expect(coalescer.arrive(1000.3, 100)).toBe(0);
  });

  it('bounds the wait by maxIntervalMs since the last flush, and sends at once once it passed', () => {
    const coalescer = new OutputCoalescer({ quietMs: 2, maxBytes: 1000, delayMs: 16, maxIntervalMs: 16 });
    coalescer.arrive(0, 1);
    coalescer.flushed(0);
    expect(coalescer.arrive(1, 1)).toBe(15);
    expect(coalescer.arrive(2, 2)).toBe(14);
    expect(coalescer.arrive(3, 3)).toBe(13);
    coalescer.flushed(4);
    expect(coalescer.arrive(5, 1)).toBe(15);
    for (let t = 6; t < 20; t++) coalescer.arrive(t, 1);
    expect(coalescer.arrive(20, 1)).toBe(0);
    expect(coalescer.arrive(21, 1)).toBe(0);
  });

  it('without maxIntervalMs ignores flushes', () => {
    const coalescer = new OutputCoalescer(server);
    coalescer.arrive(1000, 1);
    coalescer.flushed(0);
    expect(coalescer.arrive(1000.1, 1)).toBe(1);
  });
});
