// The client's bound on retained output across all its processes (their pre-subscribe buffers),
// against a real Tether server: processes nobody listens to that together print more than the bound
// keep at most about the bound, the loudest one gives way first, and what it lost is replayed as a
// gap, never hidden.
import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEvent, ProcessHandle } from '../../../electron/client/api';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { startServer } from '../../support/exec-servers';
import { waitFor } from './helpers';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const KIB = 1024;
const replayed = (handle: ProcessHandle): ProcessEvent[] => {
  const events: ProcessEvent[] = [];
  // From the start, as a reloaded renderer asks: what the log no longer holds comes as a gap.
  handle.subscribe((event) => events.push(event), { afterSeq: 0 })();
  return events;
};
const outputBytes = (events: ProcessEvent[]): number =>
  events.reduce((sum, e) => sum + (e.kind === 'output' ? e.data.byteLength : 0), 0);

describe('retained output across processes', () => {
  it('stays within the client-wide bound, taken from the loudest process, with the loss as a gap', async () => {
    const server = await startServer('tether', 'ws');
    cleanups.push(() => server.stop());
    const total = 512 * KIB;
    const client = new RemoteExecServerClient({
      transport: server.transportSpec(),
      retainedBytes: 4 * 1024 * KIB,
      retainedBytesTotal: total,
    });
    cleanups.push(() => client.close());
    const run = async (bytes: number): Promise<ProcessHandle> => {
      const handle = await client.startProcess({
        argv: ['head', '-c', String(bytes), '/dev/zero'],
        cwd: server.home,
        tty: false,
      });
      await waitFor('the process to close', () => handle.closed);
      return handle;
    };
    const quiet = await run(64 * KIB);
    const loud = await run(2048 * KIB);
    const quietEvents = replayed(quiet);
    const loudEvents = replayed(loud);
    // Chunks are at most 64 KiB, so the bound is kept to within one of them.
    expect(outputBytes(quietEvents) + outputBytes(loudEvents)).toBeLessThanOrEqual(total + 64 * KIB);
    expect(outputBytes(quietEvents)).toBe(64 * KIB);
    expect(loudEvents[0]).toMatchObject({ kind: 'gap', fromSeq: 1 });
    expect(loudEvents.at(-1)).toMatchObject({ kind: 'closed' });
  });
});
