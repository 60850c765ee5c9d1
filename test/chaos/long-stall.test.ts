// A silent link that outlasts the client's liveness limit, against both servers: the client must
// declare the connection dead by itself (no FIN or RST ever arrives), reconnect once the network is
// back — the server may still hold the old connection and answer -32010 until it learns it is gone —
// and then deliver every byte once, in order, with the exit code.
import { describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../electron/client/api';
import { DEAD_AFTER_MS } from '../../electron/client/constants';
import { type ServerImpl } from '../support/exec-servers';
import { firstDifference, lineStream } from './line-stream';
import { waitUntil, within } from './process-follower';
import { chaosRig, startFollowed } from './rig';

/** Bound for the client's liveness check to notice the silent link (it needs DEAD_AFTER_MS + ticks). */
const DETECT_WITHIN_MS = DEAD_AFTER_MS + 15_000;
/** The stall goes on this long after detection, so the first reconnect attempt hits silence too. */
const STALL_AFTER_DETECTION_MS = 1_500;
const STREAM_DONE_MS = 60_000;

describe.each<ServerImpl>(['tether', 'codex'])('a stall longer than the liveness limit (%s)', (impl) => {
  const rig = chaosRig();

  it('is detected by the client, then recovered without losing a byte', async () => {
    const { server, proxy } = await rig.serve(impl);
    const log: string[] = [];
    const client = rig.client(proxy, { log: (line) => log.push(line) });
    const states: ConnectionState['kind'][] = [];
    client.onStateChange((state) => states.push(state.kind));
    await client.connect();
    // Output keeps flowing into the server's retention while the link is silent (~350 KB in all).
    const stream = lineStream({ bursts: 40, linesPerBurst: 1_000, pauseMs: 250, exitCode: 9 });
    const { followed } = await startFollowed(client, server, {
      argv: stream.argv,
    });
    await waitUntil(() => followed.output().length > 0, 10_000, 'the first output');

    proxy.stall();
    try {
      await waitUntil(
        () => client.state.kind === 'reconnecting',
        DETECT_WITHIN_MS,
        'the client to declare the link dead',
      );
      await new Promise((r) => setTimeout(r, STALL_AFTER_DETECTION_MS));
    } finally {
      proxy.restore();
    }
    await within(followed.finished, STREAM_DONE_MS, 'the process closing');

    const context = `states: ${states.join(' → ')}\nclient log:\n${log.join('\n')}`;
    console.log(`[chaos] long stall (${impl}) ${context}`);
    expect(followed.problems, context).toEqual([]);
    expect(firstDifference(followed.output(), stream.expected()), context).toBe('identical');
    expect(followed.exitCode(), context).toBe(stream.exitCode);
    expect(client.state.kind, context).toBe('connected');
    expect(client.health().reconnectCount, context).toBe(1);
  });
});
