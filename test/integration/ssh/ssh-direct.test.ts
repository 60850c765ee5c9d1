// The direct link over SSH: the client reaches the daemon's socket through the master's
// streamlocal forwarding, with no bridge process on the host. Output stays byte-exact and in order
// through a cut, and the link resumes over the direct socket again; a daemon gone on resume is a
// lost session as on the bridge; an sshd that refuses socket forwarding gets the bridge, which
// works as before; the local socket is gone once the link closes.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPids, pidsWithHome, SshTestRig, type SshdHost, proxyOf } from '../../support/sshd';
import { ALL_TICKS, collect, outputProducedWhileCut, untilFile, waitFor } from '../client/helpers';
import { recordingHooks, sshClient, type RecordingHooks } from './ssh-helpers';
import { ADOPTED_LOG_LINE } from '../../../electron/server/daemon/pipe-adoption';

let rig: SshTestRig;
let host: SshdHost;
let refusing: SshdHost;
beforeAll(async () => {
  rig = new SshTestRig();
  host = await rig.startHost({ alias: 'direct', proxied: true });
  refusing = await rig.startHost({ alias: 'nostreamlocal', sshdLines: ['AllowStreamLocalForwarding no'] });
  rig.trustHost(host);
  rig.trustHost(refusing);
});
afterAll(async () => {
  await rig.close();
});

/** Bridges relaying on `h` now (a locate only says where the daemon is, then ends). */
function relayingBridges(h: SshdHost): number[] {
  return pidsWithHome(h.home).filter((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return argv.includes('bridge') && !argv.includes('--locate');
    } catch {
      return false;
    }
  });
}

/** The local sockets of the direct links the connect log named, in order. */
function directSockets(hooks: RecordingHooks): string[] {
  return hooks.logs.flatMap((line) => {
    const match = /^link: direct socket \((\S+) -> \S+\)/.exec(line);
    return match?.[1] ? [match[1]] : [];
  });
}

describe('SSH direct link', () => {
  it('reaches the daemon with no bridge, keeps output exact through a cut, and removes its socket', async () => {
    const hooks = recordingHooks();
    const client = sshClient(rig, host, hooks);
    try {
      await client.connect();
      expect(client.binaryFrames).toBe(true);
      const [first] = directSockets(hooks);
      expect(first, hooks.logs.join('\n')).toBeDefined();
      expect(existsSync(first!)).toBe(true);
      expect(relayingBridges(host)).toEqual([]);
      const session = client.state.kind === 'connected' ? client.state.sessionId : null;

      const out = await outputProducedWhileCut(client, proxyOf(host), host.home);
      expect(out.text()).toBe(ALL_TICKS);
      expect(out.inOrder()).toBe(true);
      expect(out.gaps()).toEqual([]);
      expect(client.state.kind === 'connected' ? client.state.sessionId : null).toBe(session);
      // The resumed link went direct again, on a socket of its own; the cut one's is gone.
      const sockets = directSockets(hooks);
      expect(sockets.length).toBeGreaterThanOrEqual(2);
      expect(relayingBridges(host)).toEqual([]);
      await waitFor('the cut link to remove its socket', () => !existsSync(first!));
      const last = sockets[sockets.length - 1]!;
      expect(existsSync(last)).toBe(true);

      // Bulk output, byte-exact, over the direct socket.
      const bulk = collect(
        await client.startProcess({
          argv: ['/bin/sh', '-c', 'head -c 3000000 /dev/urandom | od -An -tx1 | head -c 2000000'],
          cwd: host.home,
          tty: false,
        }),
      );
      await waitFor('the bulk output', () => bulk.closed(), 30_000);
      expect(bulk.bytes().length).toBe(2_000_000);
      expect(bulk.inOrder()).toBe(true);

      await client.close();
      await waitFor('the link to remove its socket', () => !existsSync(last));
    } finally {
      await client.close();
    }
  });

  it('says the session was lost when the daemon is gone on resume', async () => {
    const hooks = recordingHooks();
    const client = sshClient(rig, host, hooks);
    try {
      await client.connect();
      expect(directSockets(hooks)).toHaveLength(1);
      const out = collect(
        await client.startProcess({
          argv: ['/bin/sh', '-c', untilFile('never')],
          cwd: host.home,
          tty: false,
        }),
      );
      for (const pid of daemonPids(host)) process.kill(pid, 'SIGKILL');
      await waitFor('the client to fail', () => client.state.kind === 'failed', 45_000);
      const state = client.state;
      expect(state.kind === 'failed' && state.code).toBe('unknownSession');
      expect(state.kind === 'failed' && state.reason).toMatch(/session was lost on direct/);
      await waitFor('the process to be failed', () => out.failed() !== null);
      expect(daemonPids(host)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('takes the bridge, and says why, where sshd refuses socket forwarding', async () => {
    const hooks = recordingHooks();
    const client = sshClient(rig, refusing, hooks);
    try {
      await client.connect();
      expect(directSockets(hooks)).toEqual([]);
      expect(hooks.logs.filter((line) => line.startsWith('link: the bridge, because'))).toEqual([
        expect.stringMatching(/would not forward a socket to the daemon's .*AllowStreamLocalForwarding/),
      ]);
      expect(relayingBridges(refusing)).toHaveLength(1);
      const out = collect(
        await client.startProcess({
          argv: ['/bin/sh', '-c', 'echo over the bridge'],
          cwd: refusing.home,
          tty: false,
        }),
      );
      await waitFor('the output', () => out.closed());
      expect(out.text()).toBe('over the bridge\n');
      // sshd gives the bridge pipes, which the daemon serves itself.
      expect(hooks.logs).toContain(`bridge: ${ADOPTED_LOG_LINE}`);
    } finally {
      await client.close();
    }
  });
});
