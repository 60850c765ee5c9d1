// Binary frames on a byte stream through a faulty link: Tether's client over stdio to Tether's
// server, the stream carried through a TCP hop with a fault proxy in it, so the framed bytes arrive
// stalled, delayed, throttled and cut into arbitrary pieces. A stdio link cannot be resumed, so the
// schedule holds no cuts; what the subscriber sees must be byte-identical to what was printed, each
// seq once, with the exit code, and the link must have used binary frames throughout.
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteExecServerClient } from '../../electron/client/link/remote-client';
import { serverCommand } from '../support/exec-servers';
import { FaultProxy } from '../support/fault-proxy';
import { chaosSeed, seededRandom } from '../support/seeded-random';
import { startStdioOverTcp, tcpStdioCommand } from '../support/stdio-over-tcp';
import { FaultSchedule } from './fault-schedule';
import { firstDifference, lineStream } from './line-stream';
import { followProcess, within } from './process-follower';

const STREAM_DONE_MS = 60_000;

const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

describe('client streaming over stdio with binary frames through a faulty link', () => {
  it.each([false, true])('tty=%s: every byte once, in order, and the exit code', async (tty) => {
    const seed = chaosSeed();
    console.log(`[chaos] stdio stream (tty=${tty}) seed=${seed} (replay with CHAOS_SEED=${seed})`);
    const { command, args } = serverCommand('tether');
    const hop = await startStdioOverTcp(command, [...args, '--listen', 'stdio']);
    opened.push(() => hop.close());
    const proxy = await FaultProxy.forUrl(`tcp://127.0.0.1:${hop.port}`);
    opened.push(() => proxy.close());
    const client = new RemoteExecServerClient({
      transport: { kind: 'stdio', command: tcpStdioCommand(proxy.port) },
    });
    opened.push(() => client.close());
    await client.connect();
    expect(client.binaryFrames).toBe(true);

    const stream = lineStream({ bursts: 50, linesPerBurst: 1_000, pauseMs: 60, exitCode: 3 });
    const followed = followProcess(
      await client.startProcess({
        argv: stream.argv,
        cwd: '/',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        tty,
      }),
    );
    const schedule = new FaultSchedule({
      proxy,
      random: seededRandom(seed),
      maxFaults: 20,
      kinds: ['stall', 'latency', 'throttle'],
    });
    let how: 'closed' | 'failed';
    try {
      how = await within(followed.finished, STREAM_DONE_MS, 'the process closing');
    } finally {
      await schedule.stop();
    }
    const context = `seed=${seed} faults: ${schedule.describe()}`;
    expect(schedule.faults.length, context).toBeGreaterThan(0);
    expect(followed.problems, context).toEqual([]);
    expect(how, context).toBe('closed');
    expect(firstDifference(followed.output(), stream.expected(tty ? '\r\n' : '\n')), context).toBe(
      'identical',
    );
    expect(followed.exitCode(), context).toBe(stream.exitCode);
    expect(client.binaryFrames).toBe(true);
  });
});
