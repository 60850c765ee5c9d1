// Staying attached over SSH, with the fault proxy between ssh and sshd: output produced during a
// cut arrives byte-exact once the master is rebuilt and the bridge reattaches to the daemon; input
// typed through a cut lands exactly once; a daemon that is gone is reported as a lost session.
// Both ways the link carries binary frames (raw output and raw input), relayed by the bridge.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonPids, SshTestRig, type SshdHost, proxyOf } from '../../support/sshd';
import {
  ALL_TICKS,
  collect,
  outputProducedWhileCut,
  readFileIfAny,
  untilFile,
  waitFor,
} from '../client/helpers';
import { recordingHooks, sshClient } from './ssh-helpers';

let rig: SshTestRig;
let host: SshdHost;
beforeAll(async () => {
  rig = new SshTestRig();
  host = await rig.startHost({ alias: 'flaky', proxied: true });
  rig.trustHost(host);
});
afterAll(async () => {
  await rig.close();
});

describe('SSH reconnect', () => {
  it('delivers output produced while the link was cut, byte-exact, in the same session', async () => {
    const hooks = recordingHooks();
    const client = sshClient(rig, host, hooks);
    try {
      await client.connect();
      expect(client.binaryFrames).toBe(true);
      const session = client.state.kind === 'connected' ? client.state.sessionId : null;
      const out = await outputProducedWhileCut(client, proxyOf(host), host.home);
      expect(out.text()).toBe(ALL_TICKS);
      expect(out.inOrder()).toBe(true);
      expect(out.gaps()).toEqual([]);
      expect(client.state.kind === 'connected' ? client.state.sessionId : null).toBe(session);
      expect(client.binaryFrames, 'the resumed link agreed to binary frames again').toBe(true);
      // The master was rebuilt without a question, and nothing was installed again.
      expect(hooks.prompts).toEqual([]);
      expect(hooks.stages.filter((s) => s.stage === 'checking')).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('delivers typed input exactly once through a cut, even when its answer was lost', async () => {
    const client = sshClient(rig, host, recordingHooks());
    const proxy = proxyOf(host);
    try {
      await client.connect();
      expect(client.binaryFrames).toBe(true);
      const typed = path.join(host.home, 'typed.txt');
      const handle = await client.startProcess({
        argv: ['/bin/sh', '-c', 'cat > typed.txt'],
        cwd: host.home,
        tty: false,
        pipeStdin: true,
      });
      await handle.write('one\n');
      await waitFor('the first line on the host', () => readFileIfAny(typed) === 'one\n');
      // The next write reaches the host, but its answer is held back and then cut off: ambiguous.
      proxy.setLatency(2_000, 'downstream');
      const second = handle.write('two\n');
      await waitFor('the second line on the host', () => readFileIfAny(typed) === 'one\ntwo\n');
      proxy.cutAll();
      proxy.setLatency(0, 'downstream');
      await second;
      await handle.write('three\n');
      await waitFor('the third line', () => readFileIfAny(typed)?.endsWith('three\n'));
      expect(readFileSync(typed, 'utf8')).toBe('one\ntwo\nthree\n');
      await handle.terminate();
    } finally {
      await client.close();
    }
  });

  it('says the session was lost when the daemon on the host is gone', async () => {
    const client = sshClient(rig, host, recordingHooks());
    try {
      await client.connect();
      const out = collect(
        await client.startProcess({
          argv: ['/bin/sh', '-c', untilFile('never')],
          cwd: host.home,
          tty: false,
        }),
      );
      const daemons = daemonPids(host);
      expect(daemons).toHaveLength(1);
      for (const pid of daemons) process.kill(pid, 'SIGKILL');
      await waitFor('the client to fail', () => client.state.kind === 'failed', 45_000);
      const state = client.state;
      expect(state.kind === 'failed' && state.code).toBe('unknownSession');
      expect(state.kind === 'failed' && state.reason).toMatch(/session was lost on flaky/);
      await waitFor('the process to be failed', () => out.failed());
      // No fresh daemon (and so no fresh session) was started behind the user's back.
      expect(daemonPids(host)).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
