// Input through a faulty link: lines written with ProcessHandle.write() to a `cat` (stdin pipe, and a
// pty) while the proxy cuts and stalls the link must each come back exactly once, in order. Writes
// are issued without waiting for each other, so retries across reconnects must keep their order too.
import { describe, expect, it } from 'vitest';
import type { WriteStatus } from '../../shared/protocol';
import { type ServerImpl } from '../support/exec-servers';
import { FaultSchedule, NO_CUT_PROVES_NOTHING } from './fault-schedule';
import { firstDifference } from './line-stream';
import { waitUntil, within } from './process-follower';
import { chaosSeed, randomInt, seededRandom } from '../support/seeded-random';
import { chaosRig, startFollowed } from './rig';

const LINES = 150;
/** Bound for the echo of everything written to come back through the faults. */
const ECHO_DONE_MS = 60_000;
const CLOSE_MS = 15_000;

const line = (i: number) => `line-${String(i).padStart(6, '0')}`;

describe.each<ServerImpl>(['tether', 'codex'])('client writes to %s through a faulty link', (impl) => {
  const rig = chaosRig();

  it.each([false, true])('tty=%s: each line echoes exactly once, in order', async (tty) => {
    const seed = chaosSeed();
    const random = seededRandom(seed);
    const log: string[] = [];
    console.log(`[chaos] client write (${impl}, tty=${tty}) seed=${seed} (replay with CHAOS_SEED=${seed})`);
    const { server, proxy } = await rig.serve(impl);
    const client = rig.client(proxy, { log: (entry) => log.push(entry) });
    await client.connect();
    const eol = tty ? '\r\n' : '\n';
    // Under a pty the terminal would echo our input too; turn that off so only cat's copy comes back.
    const prompt = tty ? `READY${eol}` : '';
    const { handle, followed } = await startFollowed(client, server, {
      argv: tty ? ['/bin/sh', '-c', 'stty -echo; echo READY; exec cat'] : ['cat'],
      tty,
      pipeStdin: !tty,
    });
    await waitUntil(() => followed.output().toString() === prompt, 10_000, 'the process to be ready');

    const schedule = new FaultSchedule({ proxy, random, maxFaults: 30 });
    const writes: Array<Promise<WriteStatus>> = [];
    const end = `END${eol}`;
    try {
      for (let i = 1; i <= LINES; i++) {
        writes.push(handle.write(`${line(i)}\n`));
        await new Promise((r) => setTimeout(r, randomInt(random, 5, 40)));
      }
      const statuses = await within(Promise.all(writes), ECHO_DONE_MS, 'every write being accepted');
      expect(new Set(statuses)).toEqual(new Set(['accepted']));
      await handle.write('END\n');
      await waitUntil(() => followed.output().toString().endsWith(end), ECHO_DONE_MS, 'the END marker');
    } finally {
      await schedule.stop();
    }

    const summary = `seed=${seed} reconnects=${client.health().reconnectCount} faults: ${schedule.describe()}`;
    console.log(`[chaos] client write (${impl}, tty=${tty}) ${summary}`);
    const context = `${summary}\nclient log:\n${log.slice(-20).join('\n')}`;
    let expected = prompt;
    for (let i = 1; i <= LINES; i++) expected += `${line(i)}${eol}`;
    expected += end;
    expect(schedule.connectionsCut(), `${context}\n${NO_CUT_PROVES_NOTHING}`).toBeGreaterThan(0);
    expect(followed.problems, context).toEqual([]);
    expect(firstDifference(followed.output(), Buffer.from(expected)), context).toBe('identical');

    if (tty) {
      await handle.write('\x04');
      expect(await within(followed.finished, CLOSE_MS, 'cat exiting on ^D'), context).toBe('closed');
      expect(followed.exitCode(), context).toBe(0);
    } else {
      await handle.terminate();
      expect(await within(followed.finished, CLOSE_MS, 'cat closing after terminate'), context).toBe(
        'closed',
      );
    }
    expect(followed.output().toString(), context).toBe(expected);
  });
});
