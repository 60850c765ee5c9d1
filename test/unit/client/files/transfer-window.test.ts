// TransferWindow on a clock the test moves: the window follows bandwidth × delay as measured
// (twice it, plus one block), never below FS_WINDOW_MIN_BLOCKS nor above FS_WINDOW_MAX_BYTES in flight.
import { describe, expect, it } from 'vitest';
import {
  FS_WINDOW_INITIAL_BLOCKS,
  FS_WINDOW_MAX_BYTES,
  FS_WINDOW_MIN_BLOCKS,
} from '../../../../electron/client/constants';
import { TransferWindow } from '../../../../electron/client/files/transfer-window';

const MiB = 1_048_576;

/** Feeds `count` answers of one block each, `latencyMs` after being sent, one every `gapMs`. */
function run(
  window: TransferWindow,
  clock: { now: number },
  count: number,
  latencyMs: number,
  gapMs: number,
) {
  for (let i = 0; i < count; i++) {
    clock.now += gapMs;
    window.answered(MiB, clock.now - latencyMs);
  }
}

describe('TransferWindow', () => {
  it('starts at its initial size, then sizes itself to twice bandwidth × delay', () => {
    const clock = { now: 0 };
    const window = new TransferWindow(MiB, () => clock.now);
    expect(window.blocks).toBe(FS_WINDOW_INITIAL_BLOCKS);
    // 1 MiB every 10 ms (100 MiB/s) at 40 ms: 4 MiB in flight covers the link; twice that, plus one.
    run(window, clock, 20, 40, 10);
    expect(window.blocks).toBe(9);
  });

  it('keeps its minimum in flight on a link with no delay to speak of', () => {
    const clock = { now: 0 };
    const window = new TransferWindow(MiB, () => clock.now);
    run(window, clock, 20, 0, 10);
    expect(window.blocks).toBe(FS_WINDOW_MIN_BLOCKS);
  });

  it('never holds more than FS_WINDOW_MAX_BYTES in flight', () => {
    const clock = { now: 0 };
    const window = new TransferWindow(MiB, () => clock.now);
    run(window, clock, 50, 400, 5);
    expect(window.blocks).toBe(FS_WINDOW_MAX_BYTES / MiB);
  });

  it('follows a link that slows down', () => {
    const clock = { now: 0 };
    const window = new TransferWindow(MiB, () => clock.now);
    run(window, clock, 20, 40, 10);
    // Ten times slower (1 MiB per 100 ms) for longer than the rate span: under one block in flight.
    run(window, clock, 10, 40, 100);
    expect(window.blocks).toBe(FS_WINDOW_MIN_BLOCKS);
  });
});
