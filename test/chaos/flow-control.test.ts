// Server-side flow control through a faulty link (Tether's server only; codex has none): the
// process/ack notifications that open the output window are lost with a dead connection, so the
// client must re-acknowledge after each resume, or output stops for good. Every byte must arrive:
// under the random schedule, and in the one case the schedule rarely hits, a cut while the only
// acknowledgement that could reopen a full window is still in flight.
import { describe, expect, it } from 'vitest';
import { TetherCapability } from '../../shared/protocol';
import { FaultSchedule, NO_CUT_PROVES_NOTHING } from './fault-schedule';
import { firstDifference, lineStream } from './line-stream';
import { waitUntil, within } from './process-follower';
import { chaosSeed, seededRandom } from '../support/seeded-random';
import { chaosRig, startFollowed } from './rig';

/** Far below the output size, so the process spends the run blocked on acknowledgements. */
const WINDOW_BYTES = 16 * 1024;
const STREAM_DONE_MS = 60_000;

/** Fixed-width numbered lines (`0000001\n`, 8 bytes each) from `first` to `last`. */
const numberedLines = (first: number, last: number) => `seq -f '%07g' ${first} ${last}`;
const numberedText = (first: number, last: number) =>
  Array.from({ length: last - first + 1 }, (_, i) => `${String(first + i).padStart(7, '0')}\n`).join('');
/** Lines that fill the window exactly: the server reads nothing more until it gets an ack. */
const WINDOW_LINES = WINDOW_BYTES / 8;
/** Client → server bytes are held this long, so every ack sent before the cut dies with it. */
const ACK_HOLD_MS = 3_000;
const AFTER_RESUME_MS = 20_000;

describe('flow control through a faulty link (tether)', () => {
  const rig = chaosRig();

  it('keeps the output window open across reconnects, and nothing is lost', async () => {
    const seed = chaosSeed();
    console.log(`[chaos] flow control seed=${seed} (replay with CHAOS_SEED=${seed})`);
    const { server, proxy } = await rig.serve('tether');
    const log: string[] = [];
    const client = rig.client(proxy, { log: (line) => log.push(line) });
    await client.connect();
    expect(client.hasCapability(TetherCapability.flowControl)).toBe(true);
    const stream = lineStream({ bursts: 40, linesPerBurst: 1_000, pauseMs: 100, exitCode: 6 });
    let consumed = 0;
    const { followed } = await startFollowed(
      client,
      server,
      { argv: stream.argv, outputWindowBytes: WINDOW_BYTES },
      (event, handle) => {
        if (event.kind !== 'output') return;
        consumed += event.data.length;
        handle.acknowledge(consumed);
      },
    );

    const schedule = new FaultSchedule({ proxy, random: seededRandom(seed), maxFaults: 30 });
    try {
      await within(followed.finished, STREAM_DONE_MS, 'the process closing');
    } finally {
      await schedule.stop();
    }
    const context = `seed=${seed} faults: ${schedule.describe()}\nclient log:\n${log.slice(-20).join('\n')}`;
    console.log(`[chaos] flow control ${context.split('\n')[0]}`);
    expect(schedule.connectionsCut(), `${context}\n${NO_CUT_PROVES_NOTHING}`).toBeGreaterThan(0);
    expect(followed.problems, context).toEqual([]);
    expect(firstDifference(followed.output(), stream.expected()), context).toBe('identical');
    expect(followed.exitCode(), context).toBe(stream.exitCode);
  });

  it('re-sends an acknowledgement that was in flight when the link was cut', async () => {
    const { server, proxy } = await rig.serve('tether');
    const log: string[] = [];
    const client = rig.client(proxy, { log: (line) => log.push(line) });
    await client.connect();
    // Exactly one window, then nothing until stdin says so: once the client holds these bytes, only
    // an acknowledgement can make the server read the process's output again. The process stays
    // alive until told to exit, because Node resumes a child's paused pipes when the child exits.
    const totalLines = 4 * WINDOW_LINES;
    const script =
      `${numberedLines(1, WINDOW_LINES)}; read more; ` +
      `${numberedLines(WINDOW_LINES + 1, totalLines)}; read done; exit 6`;
    proxy.setLatency(ACK_HOLD_MS, 'upstream');
    let consumed = 0;
    let firstOutputAt: number | null = null;
    const { handle, followed } = await startFollowed(
      client,
      server,
      { argv: ['/bin/sh', '-c', script], pipeStdin: true, outputWindowBytes: WINDOW_BYTES },
      (event, handle) => {
        if (event.kind !== 'output') return;
        firstOutputAt ??= performance.now();
        consumed += event.data.length;
        handle.acknowledge(consumed);
      },
    );
    await waitUntil(() => consumed === WINDOW_BYTES, 20_000, 'the first window of output');
    // Every ack was sent after the first output arrived, so none can have passed the latency yet.
    const ackAge = performance.now() - firstOutputAt!;
    expect(ackAge, 'the acks must still be held when the link is cut').toBeLessThan(ACK_HOLD_MS);
    expect(proxy.cutAll(), 'the live connection is cut').toBe(1);
    proxy.restore();
    await waitUntil(
      () => client.health().reconnectCount === 1 && client.state.kind === 'connected',
      20_000,
      'the client to resume the session',
    );

    expect(await handle.write('more\n')).toBe('accepted');
    await waitUntil(
      () => consumed === totalLines * 8,
      AFTER_RESUME_MS,
      `the rest of the output after the resume (it stays at ${WINDOW_BYTES} bytes unless the ack lost in the cut is re-sent)`,
    );
    expect(await handle.write('done\n')).toBe('accepted');
    await within(followed.finished, AFTER_RESUME_MS, 'the process closing');
    const context = `client log:\n${log.slice(-20).join('\n')}`;
    expect(followed.problems, context).toEqual([]);
    expect(firstDifference(followed.output(), Buffer.from(numberedText(1, totalLines))), context).toBe(
      'identical',
    );
    expect(followed.exitCode(), context).toBe(6);
  });
});
