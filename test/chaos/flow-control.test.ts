// Server-side flow control through a faulty link (Tether's server only; codex has none): the
// process/ack notifications that open the output window are lost with a dead connection, so the
// client must re-acknowledge after each resume, or output stops for good. Every byte must arrive.
import { describe, expect, it } from 'vitest';
import { TetherCapability } from '../../shared/protocol';
import { FaultSchedule } from './fault-schedule';
import { firstDifference, lineStream } from './line-stream';
import { within } from './process-follower';
import { chaosSeed, seededRandom } from './seeded-random';
import { chaosRig, startFollowed } from './rig';

/** Far below the output size, so the process spends the run blocked on acknowledgements. */
const WINDOW_BYTES = 16 * 1024;
const STREAM_DONE_MS = 60_000;

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
    const { handle, followed } = await startFollowed(client, server, {
      argv: stream.argv,
      outputWindowBytes: WINDOW_BYTES,
    });
    let consumed = 0;
    handle.subscribe((event) => {
      if (event.kind !== 'output') return;
      consumed += event.data.length;
      handle.acknowledge(consumed);
    });

    const schedule = new FaultSchedule({ proxy, random: seededRandom(seed), maxFaults: 30 });
    try {
      await within(followed.finished, STREAM_DONE_MS, 'the process closing');
    } finally {
      await schedule.stop();
    }
    const context = `seed=${seed} faults: ${schedule.describe()}\nclient log:\n${log.slice(-20).join('\n')}`;
    console.log(`[chaos] flow control ${context.split('\n')[0]}`);
    expect(followed.problems, context).toEqual([]);
    expect(firstDifference(followed.output(), stream.expected()), context).toBe('identical');
    expect(followed.exitCode(), context).toBe(stream.exitCode);
  });
});
