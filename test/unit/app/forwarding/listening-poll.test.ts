// When port detection polls a host: soon after a wake, then less and less often while nothing
// changes, at once again after a change or a wake, and never while the environment is not active.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ListeningPoll, POLL_MAX_MS, POLL_MIN_MS } from '../../../../electron/app/forwarding/listening-poll';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function rig() {
  const at: number[] = [];
  const state = { active: true, changed: false };
  const start = Date.now();
  const poll = new ListeningPoll({
    active: () => state.active,
    poll: async () => {
      at.push(Date.now() - start);
      return state.changed;
    },
  });
  return { poll, at, state };
}

describe('listening poll', () => {
  it('backs off while nothing changes, and polls soon again after a wake', async () => {
    const { poll, at } = rig();
    poll.wake('e');
    await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000 + 8_000 + 8_000);
    expect(at).toEqual([1_000, 3_000, 7_000, 15_000, 23_000]);
    expect(POLL_MIN_MS).toBe(1_000);
    expect(POLL_MAX_MS).toBe(8_000);
    // Output of a process (a wake) brings the next poll within a second.
    await vi.advanceTimersByTimeAsync(2_000);
    poll.wake('e');
    poll.wake('e');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(at.at(-1)).toBe(26_000);
    poll.close();
  });

  it('polls at the shortest interval while polls find changes', async () => {
    const { poll, at, state } = rig();
    state.changed = true;
    poll.wake('e');
    await vi.advanceTimersByTimeAsync(3_000);
    expect(at).toEqual([1_000, 2_000, 3_000]);
    poll.close();
  });

  it('does not poll an environment that is not active, and stops once it is not', async () => {
    const { poll, at, state } = rig();
    state.active = false;
    poll.wake('e');
    await vi.advanceTimersByTimeAsync(20_000);
    expect(at).toEqual([]);
    expect(poll.isPolling('e')).toBe(false);
    state.active = true;
    poll.wake('e');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(at).toEqual([21_000]);
    state.active = false;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(at).toEqual([21_000]);
    expect(poll.isPolling('e')).toBe(false);
  });
});
