// A stalled SSH link: the bridge's connection is up but nothing comes back (the link carries binary
// frames, which the bridge relays as bytes). SSH links have no transport pings, so before the
// stall bound the client could only flag the link as stalled, for as long as the network stayed
// frozen. Now it gives the link up by itself after its bound, and at once on reconnectNow(), and
// resumes the same session over a rebuilt master, every line once.
// The bound is set below ssh's own keepalive give-up here, so it is the client that notices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../electron/client/api';
import { STALLED_AFTER_MS } from '../../electron/client/constants';
import {
  SSH_SERVER_ALIVE_COUNT,
  SSH_SERVER_ALIVE_INTERVAL_S,
} from '../../electron/client/transports/ssh/ssh-constants';
import { proxyOf, SshTestRig, type SshdHost } from '../support/sshd';
import { recordingHooks, sshClient, type RecordingHooks } from '../integration/ssh/ssh-helpers';
import { firstDifference, lineStream } from './line-stream';
import { followProcess, waitUntil, within } from './process-follower';

/** The client's stall bound in these tests: past the stalled mark, well before ssh's keepalive. */
const STALL_BOUND_MS = STALLED_AFTER_MS + 4_000;
/** ssh drops a silent master after about this long: the client must have acted before. */
const SSH_GIVES_UP_MS = SSH_SERVER_ALIVE_INTERVAL_S * SSH_SERVER_ALIVE_COUNT * 1000;
/** Probes go every 2 s, so the wait starts up to one interval into the freeze; room for load. */
const STALLED_WITHIN_MS = STALLED_AFTER_MS + 6_000;
const RESUMED_WITHIN_MS = 45_000;
const STREAM_DONE_MS = 90_000;

let rig: SshTestRig;
let host: SshdHost;
beforeAll(async () => {
  rig = new SshTestRig();
  host = await rig.startHost({ alias: 'stalling', proxied: true });
  rig.trustHost(host);
});
afterAll(async () => {
  await rig.close();
});

/** A connected client streaming numbered lines (~20 s, ~190 KB), its first output seen. */
async function streaming(hooks: RecordingHooks, options: { stallReconnectAfterMs?: number } = {}) {
  const client = sshClient(rig, host, hooks, options);
  const states: ConnectionState[] = [];
  client.onStateChange((state) => states.push(state));
  await client.connect();
  // The bridge relays the daemon's framed stream: this chaos runs over binary frames.
  expect(client.binaryFrames).toBe(true);
  const session = client.state.kind === 'connected' ? client.state.sessionId : null;
  const stream = lineStream({ bursts: 80, linesPerBurst: 400, pauseMs: 250, exitCode: 4 });
  const followed = followProcess(
    await client.startProcess({ argv: stream.argv, cwd: host.home, tty: false }),
  );
  await waitUntil(() => followed.output().length > 0, 30_000, 'the first output');
  return { client, states, session, stream, followed };
}

describe('a stalled SSH link', () => {
  it(
    'is given up after the stall bound and the session resumes, every line once',
    async () => {
      const proxy = proxyOf(host);
      const hooks = recordingHooks();
      const { client, states, session, stream, followed } = await streaming(hooks, {
        stallReconnectAfterMs: STALL_BOUND_MS,
      });
      try {
        proxy.stall();
        const frozenAt = Date.now();
        try {
          await waitUntil(() => client.health().stalled, STALLED_WITHIN_MS, 'the link to be stalled');
          expect(client.health().stallReconnectAt, 'the health says when it gives up').not.toBeNull();
          await waitUntil(
            () => client.state.kind === 'reconnecting',
            STALL_BOUND_MS + 10_000,
            'the client to give the stalled link up',
          );
        } finally {
          proxy.restore();
        }
        const gaveUpAfterMs = Date.now() - frozenAt;
        const reconnecting = states.find((s) => s.kind === 'reconnecting');
        const context = `gave up after ${gaveUpAfterMs} ms; logs:\n${hooks.logs.slice(-20).join('\n')}`;
        expect(reconnecting?.kind === 'reconnecting' && reconnecting.reason, context).toMatch(
          /No reply from ssh stalling for \d+ s; the stalled link is given up/,
        );
        expect(gaveUpAfterMs, context).toBeLessThan(SSH_GIVES_UP_MS);
        expect(
          hooks.logs.some((line) => line.startsWith('ssh master ended')),
          context,
        ).toBe(false);

        await waitUntil(() => client.state.kind === 'connected', RESUMED_WITHIN_MS, 'the resume');
        expect(client.state.kind === 'connected' ? client.state.sessionId : null).toBe(session);
        expect(client.binaryFrames, 'the resumed link agreed to binary frames again').toBe(true);
        await within(followed.finished, STREAM_DONE_MS, 'the stream closing');
        expect(followed.problems).toEqual([]);
        expect(firstDifference(followed.output(), stream.expected())).toBe('identical');
        expect(followed.exitCode()).toBe(stream.exitCode);
        // The stall is in the Health timeline, right before the loss it ended in.
        const history = client.health().history.map((h) => h.state);
        expect(history.slice(history.indexOf('stalled'))).toEqual(
          expect.arrayContaining(['stalled', 'reconnecting', 'connected']),
        );
        expect(client.health().reconnectCount).toBe(1);
      } finally {
        await client.close();
      }
    },
    STREAM_DONE_MS + 90_000,
  );

  it(
    'is given up at once on reconnectNow() and resumes over a new master, every line once',
    async () => {
      const proxy = proxyOf(host);
      const hooks = recordingHooks();
      const { client, session, stream, followed } = await streaming(hooks);
      const loginsBefore = host.servedConnections();
      try {
        // The master's connection is stranded; a new one would get through.
        proxy.stall('existing');
        await waitUntil(() => client.health().stalled, STALLED_WITHIN_MS, 'the link to be stalled');
        client.reconnectNow();
        expect(client.state.kind, 'reconnectNow drops a stalled link at once').toBe('reconnecting');
        const state = client.state;
        expect(state.kind === 'reconnecting' && state.reason).toMatch(
          /Reconnect asked while the link was stalled/,
        );

        await waitUntil(() => client.state.kind === 'connected', RESUMED_WITHIN_MS, 'the resume');
        expect(client.state.kind === 'connected' ? client.state.sessionId : null).toBe(session);
        expect(client.binaryFrames, 'the resumed link agreed to binary frames again').toBe(true);
        expect(host.servedConnections(), 'the stuck master was replaced').toBe(loginsBefore + 1);
        await within(followed.finished, STREAM_DONE_MS, 'the stream closing');
        expect(followed.problems).toEqual([]);
        expect(firstDifference(followed.output(), stream.expected())).toBe('identical');
        expect(followed.exitCode()).toBe(stream.exitCode);
      } finally {
        proxy.restore();
        await client.close();
      }
    },
    STREAM_DONE_MS + 90_000,
  );
});
