// How an SSH environment ends an outage, with the fault proxy between ssh and sshd: a cut longer
// than the daemon's session lifetime ends in the clear expired state (and no fresh session behind
// the user's back); a wake/online signal (reconnectNow) during a long backoff resumes at once.
// Each test starts a host of its own (own HOME and daemon run dir), so the daemon is its own.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionState } from '../../../electron/client/api';
import { daemonPids, SshTestRig, proxyOf } from '../../support/sshd';
import { collect, untilFile, waitFor } from '../client/helpers';
import { recordingHooks, sshClient } from './ssh-helpers';

/** The daemon's detached-session lifetime for the expiry test (`--session-ttl-ms`). */
const SESSION_TTL_MS = 3_000;
/** A backoff no test waits out: only reconnectNow() can end it. */
const LONG_BACKOFF = { rampMs: [10 * 60_000], steadyMs: 10 * 60_000, jitter: 0 };

let rig: SshTestRig;
beforeAll(() => {
  rig = new SshTestRig();
});
afterAll(async () => {
  await rig.close();
});

function sessionOf(state: ConnectionState): string | null {
  return state.kind === 'connected' ? state.sessionId : null;
}

describe('SSH outage recovery', () => {
  it('says the session expired when the cut outlasted its lifetime, and starts no fresh one', async () => {
    // A host of its own (own HOME and run dir): its daemon is started by this test, with this TTL.
    const host = await rig.startHost({ alias: 'expiring', proxied: true });
    rig.trustHost(host);
    const proxy = proxyOf(host);
    // The default hold margin (a minute past the lifetime): the client still tries when the link
    // is back, so it is the host that must tell it the session is gone.
    const client = sshClient(rig, host, recordingHooks(), { spec: { sessionTtlMs: SESSION_TTL_MS } });
    const states: ConnectionState[] = [];
    client.onStateChange((state) => states.push(state));
    try {
      await client.connect();
      const session = sessionOf(client.state);
      const out = collect(
        await client.startProcess({
          argv: ['/bin/sh', '-c', `echo started; ${untilFile('never')}`],
          cwd: host.home,
          tty: false,
        }),
      );
      await waitFor('the first output', () => out.text() === 'started\n');
      const daemons = daemonPids(host);
      expect(daemons).toHaveLength(1);

      expect(proxy.cutAll(), 'the master connection is cut').toBe(1);
      proxy.refuseNew(true);
      const reconnecting = await waitFor('the client to notice the cut', () =>
        client.state.kind === 'reconnecting' ? client.state : null,
      );
      expect(reconnecting.sessionHeldUntil, 'the lifetime the daemon advertised').toEqual(expect.any(Number));
      // Longer than the lifetime: the daemon drops the session (and ends its process) meanwhile.
      await waitFor(
        'the session lifetime to pass',
        () => Date.now() > reconnecting.sessionHeldUntil! + 1_000,
      );
      expect(client.state.kind, 'still trying within the margin').toBe('reconnecting');
      proxy.restore();
      client.reconnectNow();

      await waitFor('the client to fail', () => client.state.kind === 'failed', 45_000);
      const state = client.state as Extract<ConnectionState, { kind: 'failed' }>;
      expect(state.code).toBe('unknownSession');
      expect(state.reason).toMatch(/expired/);
      expect(state.expiredAt, 'dated by the lifetime it was held for').toBe(reconnecting.sessionHeldUntil);
      await waitFor('the process to be failed', () => out.failed());
      // Nothing behind the user's back: no connected state after the cut, no new session, no new daemon.
      const afterCut = states.slice(states.indexOf(reconnecting));
      expect(afterCut.filter((s) => s.kind === 'connected')).toEqual([]);
      expect(session).not.toBeNull();
      expect(daemonPids(host)).toEqual(daemons);
    } finally {
      await client.close();
    }
  });

  it('resumes at once on reconnectNow() while a long backoff is waiting, rebuilding the master', async () => {
    const host = await rig.startHost({ alias: 'waking', proxied: true });
    rig.trustHost(host);
    const proxy = proxyOf(host);
    const client = sshClient(rig, host, recordingHooks(), { backoff: LONG_BACKOFF });
    try {
      await client.connect();
      const session = sessionOf(client.state);
      const out = collect(
        await client.startProcess({
          argv: ['/bin/sh', '-c', `echo before; ${untilFile('go')}; echo after`],
          cwd: host.home,
          tty: false,
        }),
      );
      await waitFor('the first output', () => out.text() === 'before\n');
      const loginsBefore = host.servedConnections();

      expect(proxy.cutAll(), 'the master connection is cut').toBe(1);
      proxy.refuseNew(true);
      // The first attempt goes at once and is refused; then the client waits out the long backoff.
      await waitFor(
        'the client to wait out its backoff',
        () => client.state.kind === 'reconnecting' && client.state.nextRetryAt !== null,
      );
      proxy.restore();
      client.reconnectNow();

      await waitFor('the resume', () => client.state.kind === 'connected', 45_000);
      expect(sessionOf(client.state), 'the same session').toBe(session);
      expect(host.servedConnections(), 'a new master signed in').toBe(loginsBefore + 1);
      writeFileSync(path.join(host.home, 'go'), '');
      await waitFor('the rest of the output', () => out.closed());
      expect(out.text()).toBe('before\nafter\n');
      expect(out.gaps()).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
