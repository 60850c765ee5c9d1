// Tether's client (RemoteExecServerClient) through the fault proxy, against both servers: processes
// stream numbered lines over pipes and a pty while the link is cut and stalled at random; what the
// subscriber sees must be byte-identical to what was printed, each seq once, with the exit code.
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteExecServerClient } from '../../electron/client/remote-client';
import { FaultProxy } from '../support/fault-proxy';
import { startServer, type ServerImpl, type StartedServer } from '../support/exec-servers';
import { FaultSchedule } from './fault-schedule';
import { firstDifference, lineStream } from './line-stream';
import { followProcess, within } from './process-follower';
import { chaosSeed, seededRandom } from './seeded-random';

/** Bound for one streamed process to finish through the faults. */
const STREAM_DONE_MS = 60_000;

describe.each<ServerImpl>(['tether', 'codex'])('client streaming from %s through a faulty link', (impl) => {
  let server: StartedServer | undefined;
  let proxy: FaultProxy | undefined;
  let client: RemoteExecServerClient | undefined;

  afterEach(async () => {
    await client?.close();
    await proxy?.close();
    await server?.stop();
    client = undefined;
    proxy = undefined;
    server = undefined;
  });

  it.each([false, true])('tty=%s: every byte once, in order, and the exit code', async (tty) => {
    const seed = chaosSeed();
    const log: string[] = [];
    console.log(`[chaos] client stream (${impl}, tty=${tty}) seed=${seed} (replay with CHAOS_SEED=${seed})`);
    server = await startServer(impl, 'ws');
    proxy = await FaultProxy.forUrl(server.url!);
    client = new RemoteExecServerClient({
      transport: { kind: 'ws', url: proxy.url() },
      log: (line) => log.push(line),
    });
    await client.connect();
    const stream = lineStream({ bursts: 80, linesPerBurst: 1_000, pauseMs: 60, exitCode: 3 });
    const handle = await client.startProcess({
      argv: stream.argv,
      cwd: server.home,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      tty,
    });
    const followed = followProcess(handle);

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
    expect(followed.problems, context).toEqual([]);
    expect(how, context).toBe('closed');
    expect(firstDifference(followed.output(), stream.expected(tty ? '\r\n' : '\n')), context).toBe(
      'identical',
    );
    expect(followed.exitCode(), context).toBe(stream.exitCode);
  });
});
