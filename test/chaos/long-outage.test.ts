// The one real multi-minute outage (everything else injects short lifetimes and backoffs): the link
// is cut and every reconnect refused for three minutes — three times the client's old fixed give-up
// and more than the server's exited-process TTL — against Tether's server with the default policy.
// The process keeps printing, then exits, while nobody is attached; once the link is back the
// client resumes the same session by itself and delivers every byte once, in order, with the code.
import { describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../electron/client/api';
import { BACKOFF_STEADY_MS, BACKOFF_JITTER } from '../../electron/client/constants';
import { firstDifference, lineStream } from './line-stream';
import { waitFor } from '../support/wait';
import { within } from './process-follower';
import { chaosRig, startFollowed } from './rig';

const OUTAGE_MS = 180_000;
/** Once the network is back, the next steady attempt resumes: one interval, with room for load. */
const RESUMED_WITHIN_MS = BACKOFF_STEADY_MS * (1 + BACKOFF_JITTER) + 20_000;
const TEST_TIMEOUT_MS = OUTAGE_MS + 120_000;

describe('a three-minute outage against Tether', () => {
  const rig = chaosRig();

  it(
    'is ridden out with the default policy and resumes byte-exact',
    async () => {
      const { server, proxy } = await rig.serve('tether');
      const log: string[] = [];
      const client = rig.client(proxy, { log: (line) => log.push(line) });
      const states: ConnectionState[] = [];
      client.onStateChange((state) => states.push(state));
      await client.connect();
      // ~60 s of output (~390 KB, inside the 1 MiB retention), so the process exits mid-outage.
      const stream = lineStream({ bursts: 60, linesPerBurst: 1_000, pauseMs: 1_000, exitCode: 5 });
      const { followed } = await startFollowed(client, server, { argv: stream.argv });
      await waitFor(() => followed.output().length > 0, 'the first output', 10_000);

      const cutAt = Date.now();
      expect(proxy.cutAll(), 'the live connection is cut').toBe(1);
      proxy.refuseNew(true);
      try {
        await waitFor(() => client.state.kind === 'reconnecting', 'the client to notice the cut', 10_000);
        await new Promise((r) => setTimeout(r, OUTAGE_MS - (Date.now() - cutAt)));
      } finally {
        proxy.restore();
      }
      const restoredAt = Date.now();
      await waitFor(() => client.state.kind === 'connected', 'the resume', RESUMED_WITHIN_MS);
      const resumedAfterMs = Date.now() - restoredAt;
      await within(followed.finished, 60_000, 'the process closing');

      const attempts = Math.max(...states.map((s) => (s.kind === 'reconnecting' ? s.attempt : 0)));
      const context = `attempts: ${attempts}, resumed ${resumedAfterMs} ms after the network came back\n${log.join('\n')}`;
      console.log(`[chaos] long outage: ${context}`);
      expect(
        states.some((s) => s.kind === 'failed'),
        context,
      ).toBe(false);
      expect(followed.problems, context).toEqual([]);
      expect(firstDifference(followed.output(), stream.expected()), context).toBe('identical');
      expect(followed.exitCode(), context).toBe(stream.exitCode);
      expect(client.health().reconnectCount, 'one outage, one resume of the same session').toBe(1);
      // Steady attempts all along: about one per BACKOFF_STEADY_MS after the ramp.
      expect(attempts, context).toBeGreaterThan(OUTAGE_MS / (BACKOFF_STEADY_MS * (1 + BACKOFF_JITTER)));
    },
    TEST_TIMEOUT_MS,
  );
});
