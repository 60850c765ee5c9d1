// The notices of detected forwards: the ports found together go out as one, an environment gets at
// most one every NOTICE_GAP_MS (later finds wait and join the next), each port is announced once,
// and a forward stopped before its notice went out is not announced.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ForwardView } from '../../../../shared/ipc';
import {
  DetectionNotices,
  NOTICE_GAP_MS,
  NOTICE_GATHER_MS,
} from '../../../../electron/app/forwarding/detection-notices';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const view = (port: number): ForwardView => ({
  id: `f-${port}`,
  envId: 'e',
  host: 'localhost',
  port,
  state: 'forwarding',
  addresses: [],
  boundPort: port,
  remapped: false,
  error: null,
  auto: true,
  httpOnly: false,
  foundBy: 'listeningSocket',
  process: { pid: 7, name: 'node' },
});

describe('detection notices', () => {
  it('gathers, rate-limits and announces each port once', async () => {
    let live = Array.from({ length: 50 }, (_, i) => view(3000 + i));
    const sent: number[][] = [];
    const notices = new DetectionNotices({
      list: () => live,
      send: (_envId, forwards) => sent.push(forwards.map((f) => f.port)),
    });
    for (const f of [...live].reverse()) notices.detected('e', f);
    await vi.advanceTimersByTimeAsync(NOTICE_GATHER_MS);
    expect(sent).toEqual([live.map((f) => f.port)]);

    // Within the gap: held back, then both in one notice; a port announced already is not again.
    live = [...live, view(4000), view(4001), view(4002)];
    notices.detected('e', view(4000));
    notices.detected('e', view(3000));
    await vi.advanceTimersByTimeAsync(1_000);
    notices.detected('e', view(4001));
    notices.detected('e', view(4002));
    live = live.filter((f) => f.port !== 4002); // stopped before the notice went out
    await vi.advanceTimersByTimeAsync(NOTICE_GAP_MS - 1_000 - 1);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([live.slice(0, 50).map((f) => f.port), [4000, 4001]]);
    notices.close();
  });
});
