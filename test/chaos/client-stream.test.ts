// Tether's client (RemoteExecServerClient) through the fault proxy, against both servers: processes
// stream numbered lines over pipes and a pty while the link is cut and stalled at random; what the
// subscriber sees must be byte-identical to what was printed, each seq once, with the exit code.
import { describe, expect, it } from 'vitest';
import { type ServerImpl } from '../support/exec-servers';
import { FaultSchedule, NO_CUT_PROVES_NOTHING } from './fault-schedule';
import { firstDifference, lineStream } from './line-stream';
import { within } from './process-follower';
import { chaosSeed, seededRandom } from '../support/seeded-random';
import { chaosRig, startFollowed } from './rig';

/** Bound for one streamed process to finish through the faults. */
const STREAM_DONE_MS = 60_000;

describe.each<ServerImpl>(['tether', 'codex'])('client streaming from %s through a faulty link', (impl) => {
  const rig = chaosRig();

  it.each([false, true])('tty=%s: every byte once, in order, and the exit code', async (tty) => {
    const seed = chaosSeed();
    const log: string[] = [];
    console.log(`[chaos] client stream (${impl}, tty=${tty}) seed=${seed} (replay with CHAOS_SEED=${seed})`);
    const { server, proxy } = await rig.serve(impl);
    const client = rig.client(proxy, { log: (line) => log.push(line) });
    await client.connect();
    const stream = lineStream({ bursts: 80, linesPerBurst: 1_000, pauseMs: 60, exitCode: 3 });
    const { followed } = await startFollowed(client, server, {
      argv: stream.argv,
      tty,
    });

    const schedule = new FaultSchedule({ proxy, random: seededRandom(seed), maxFaults: 30 });
    let how: 'closed' | 'failed';
    try {
      how = await within(followed.finished, STREAM_DONE_MS, 'the process closing');
    } finally {
      await schedule.stop();
    }

    const summary = `seed=${seed} reconnects=${client.health().reconnectCount} faults: ${schedule.describe()}`;
    console.log(`[chaos] client stream (${impl}, tty=${tty}) ${summary}`);
    const context = `${summary}\nstate: ${JSON.stringify(client.state)}\nclient log:\n${log.slice(-20).join('\n')}`;
    expect(schedule.connectionsCut(), `${context}\n${NO_CUT_PROVES_NOTHING}`).toBeGreaterThan(0);
    expect(followed.problems, context).toEqual([]);
    expect(how, context).toBe('closed');
    expect(firstDifference(followed.output(), stream.expected(tty ? '\r\n' : '\n')), context).toBe(
      'identical',
    );
    expect(followed.exitCode(), context).toBe(stream.exitCode);
  });
});
