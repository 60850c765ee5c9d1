// The one real multi-minute outage over SSH: the fault proxy between ssh and sshd black-holes the
// link for two minutes, so the master dies by its ServerAlive keepalive and every new one hangs,
// while the client keeps trying with its default policy. Once the link is back it rebuilds the
// master, re-runs the bridge and resumes the same session: the streamed lines arrive byte-exact
// and once, and a line typed during the outage reaches the process exactly once.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../electron/client/api';
import type { WriteStatus } from '../../shared/protocol';
import { BACKOFF_JITTER, BACKOFF_STEADY_MS } from '../../electron/client/constants';
import {
  SSH_SERVER_ALIVE_COUNT,
  SSH_SERVER_ALIVE_INTERVAL_S,
} from '../../electron/client/transports/ssh/ssh-constants';
import { SshTestRig, type SshdHost } from '../support/sshd';
import { readFileIfAny } from '../integration/client/helpers';
import { recordingHooks, sshClient } from '../integration/ssh/ssh-helpers';
import { firstDifference, lineStream } from './line-stream';
import { followProcess, waitUntil, within } from './process-follower';

const OUTAGE_MS = 120_000;
/** ssh gives a silent master up after ServerAliveInterval × ServerAliveCountMax (plus room for load). */
const MASTER_DIES_WITHIN_MS = SSH_SERVER_ALIVE_INTERVAL_S * (SSH_SERVER_ALIVE_COUNT + 1) * 1000 + 20_000;
/** Once the network is back, the next steady attempt resumes: one interval, with room for load. */
const RESUMED_WITHIN_MS = BACKOFF_STEADY_MS * (1 + BACKOFF_JITTER) + 30_000;
const TEST_TIMEOUT_MS = OUTAGE_MS + 150_000;

let rig: SshTestRig;
let host: SshdHost;
beforeAll(async () => {
  rig = new SshTestRig();
  host = await rig.startHost({ alias: 'outage', proxied: true });
  rig.trustHost(host);
});
afterAll(async () => {
  await rig.close();
});

describe('a two-minute outage over SSH', () => {
  it(
    'is ridden out: the master is rebuilt and the same session resumes byte-exact',
    async () => {
      const proxy = host.proxy;
      if (!proxy) throw new Error('the host has no proxy');
      const hooks = recordingHooks();
      // This test is about ssh's own keepalive ending the master; the client's own stall bound
      // (which replaces a stalled link at about the same time) is test/chaos/ssh-stall.test.ts's.
      const client = sshClient(rig, host, hooks, { stallReconnectAfterMs: 10 * 60_000 });
      const states: ConnectionState[] = [];
      client.onStateChange((state) => states.push(state));
      try {
        await client.connect();
        const session = client.state.kind === 'connected' ? client.state.sessionId : null;
        // ~170 s of numbered lines (~420 KB, inside the daemon's 1 MiB retention).
        const stream = lineStream({ bursts: 170, linesPerBurst: 400, pauseMs: 1_000, exitCode: 3 });
        const streaming = followProcess(
          await client.startProcess({ argv: stream.argv, cwd: host.home, tty: false }),
        );
        const typed = path.join(host.home, 'typed.txt');
        const typing = await client.startProcess({
          argv: ['/bin/sh', '-c', 'exec cat > typed.txt'],
          cwd: host.home,
          tty: false,
          pipeStdin: true,
        });
        expect(await typing.write('before\n')).toBe('accepted');
        await waitUntil(() => readFileIfAny(typed) === 'before\n', 30_000, 'the first typed line');
        await waitUntil(() => streaming.output().length > 0, 30_000, 'the first output');
        const loginsBefore = host.servedConnections();

        proxy.stall();
        const cutAt = Date.now();
        let typedDuring: Promise<WriteStatus> | null = null;
        try {
          await waitUntil(
            () => hooks.logs.some((line) => line.startsWith('ssh master ended')),
            MASTER_DIES_WITHIN_MS,
            'the master to give up on the silent link',
          );
          const masterDiedAfterMs = Date.now() - cutAt;
          await waitUntil(() => client.state.kind === 'reconnecting', 30_000, 'the client to notice');
          typedDuring = typing.write('during the outage\n');
          console.log(`[chaos] ssh outage: the master gave up ${masterDiedAfterMs} ms into the outage`);
          await new Promise((r) => setTimeout(r, OUTAGE_MS - (Date.now() - cutAt)));
        } finally {
          proxy.restore();
        }
        expect(Date.now() - cutAt, 'a real two-minute outage').toBeGreaterThanOrEqual(OUTAGE_MS);
        const restoredAt = Date.now();
        await waitUntil(() => client.state.kind === 'connected', RESUMED_WITHIN_MS, 'the resume');
        const resumedAfterMs = Date.now() - restoredAt;
        expect(await typedDuring, 'the line typed during the outage').toBe('accepted');
        expect(await typing.write('after\n')).toBe('accepted');
        await waitUntil(
          () => readFileIfAny(typed)?.endsWith('after\n') === true,
          30_000,
          'the last typed line',
        );
        console.log(`[chaos] ssh outage: resumed ${resumedAfterMs} ms after the link came back`);
        await within(streaming.finished, 120_000, 'the stream closing');
        expect(client.state.kind === 'connected' ? client.state.sessionId : null).toBe(session);
        expect(states.some((s) => s.kind === 'failed')).toBe(false);
        expect(streaming.problems).toEqual([]);
        expect(firstDifference(streaming.output(), stream.expected())).toBe('identical');
        expect(streaming.exitCode()).toBe(stream.exitCode);
        expect(readFileIfAny(typed), 'each typed line once, in order').toBe(
          'before\nduring the outage\nafter\n',
        );
        expect(host.servedConnections(), 'a new master signed in').toBeGreaterThan(loginsBefore);
        expect(client.health().reconnectCount, 'one outage, one resume of the same session').toBe(1);
        await typing.terminate();
      } finally {
        await client.close();
      }
    },
    TEST_TIMEOUT_MS,
  );
});
