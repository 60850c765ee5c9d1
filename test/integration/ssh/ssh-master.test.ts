// A killed SSH master leaves its control socket behind. The next master must not take that stale
// file for itself: it removes it, waits until it answers `ssh -O check`, and every later step
// (the bridge, probes) rides on it instead of signing in on its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SshTestRig, type SshdHost } from '../../support/sshd';
import { pidAlive } from '../../support/pids';
import { collect, waitFor } from '../client/helpers';
import { masterAnswers, masterOf, recordingHooks, sshClient } from './ssh-helpers';

let rig: SshTestRig;
let host: SshdHost;
beforeAll(async () => {
  rig = new SshTestRig();
  host = await rig.startHost({ alias: 'killed-master' });
  rig.trustHost(host);
});
afterAll(async () => {
  await rig.close();
});

describe('an SSH master killed by its pid', () => {
  it('is replaced by one that is up and carries every later step', async () => {
    const client = sshClient(rig, host, recordingHooks());
    try {
      await client.connect();
      const session = client.state.kind === 'connected' ? client.state.sessionId : null;
      const first = masterOf(rig, host);
      if (!first) throw new Error('no ssh master found');
      expect(masterAnswers(rig, host, first.controlPath)).toBe(true);
      const loginsBefore = host.servedConnections();

      // SIGKILL leaves the socket file behind (the reconnect starts at once, so it is not looked at).
      process.kill(first.pid, 'SIGKILL');
      await waitFor('the master to die', () => !pidAlive(first.pid));
      await waitFor('the client to notice', () => client.state.kind !== 'connected');
      await waitFor('the resume', () => client.state.kind === 'connected', 45_000);
      expect(client.state.kind === 'connected' ? client.state.sessionId : null).toBe(session);

      const second = masterOf(rig, host);
      expect(second?.pid).not.toBe(first.pid);
      expect(second?.controlPath).toBe(first.controlPath);
      expect(masterAnswers(rig, host, first.controlPath), 'the new master answers -O check').toBe(true);
      const out = collect(
        await client.startProcess({ argv: ['/bin/echo', 'over the master'], cwd: host.home, tty: false }),
      );
      await waitFor('the process to close', () => out.closed());
      expect(out.text()).toBe('over the master\n');
      // The bridge that resumed is the later step: without the master it signs in by itself too.
      expect(host.servedConnections(), 'only the new master signed in').toBe(loginsBefore + 1);
    } finally {
      await client.close();
    }
  });
});
