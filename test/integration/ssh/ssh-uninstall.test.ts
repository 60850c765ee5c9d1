// "Uninstall Tether from this host" against a real sshd host without node: after a connect has
// installed the server and a Node runtime and started the daemon, uninstall stops that daemon (and
// no other process a stale pidfile names), removes ~/.tether and the run files, says what it
// removed, and the next connect installs everything again.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  uninstallFromSshHost,
  type SshTransportSpec,
} from '../../../electron/client/transports/ssh/ssh-transport';
import { homeKey } from '../../../electron/server/daemon/daemon-paths';
import { pidAlive } from '../../support/pids';
import { daemonPids, SshTestRig, type SshdHost } from '../../support/sshd';
import { collect, waitFor } from '../client/helpers';
import { installedOnHost, recordingHooks, sshClient, sshSpec } from './ssh-helpers';

let rig: SshTestRig;
beforeAll(() => {
  rig = new SshTestRig();
});
afterAll(async () => {
  await rig.close();
});

function specOf(host: SshdHost): SshTransportSpec {
  const spec = sshSpec(rig, host);
  if (spec.kind !== 'ssh') throw new Error('an ssh spec');
  return spec;
}

async function connectAndEcho(host: SshdHost, word: string) {
  const hooks = recordingHooks();
  const client = sshClient(rig, host, hooks);
  try {
    await client.connect();
    const handle = await client.startProcess({
      argv: ['/bin/sh', '-c', `echo ${word}`],
      cwd: '/',
      tty: true,
    });
    const out = collect(handle);
    await waitFor('the process to close', () => out.closed());
    expect(out.text()).toContain(word);
  } finally {
    await client.close();
  }
  return hooks;
}

describe('tether uninstall on an SSH host', () => {
  it('stops the daemon, removes what Tether installed, and a reconnect installs again', async () => {
    const host = await rig.startHost({ alias: 'uninstall-me', noNode: true });
    rig.trustHost(host);
    await connectAndEcho(host, 'before');
    const runDir = path.join(host.home, '.tether-run');
    const [daemon] = daemonPids(host);
    expect(daemon).toBeDefined();
    expect(installedOnHost(host, 'server')).toHaveLength(1);
    expect(installedOnHost(host, 'runtime')).toHaveLength(1);

    // A stale pidfile of another version naming a process that is not a Tether daemon.
    const bystander = spawn('sleep', ['120'], { stdio: 'ignore' });
    const strayPidfile = path.join(runDir, '0.0.1-aaaaaaaaaaaa.pid');
    writeFileSync(strayPidfile, `${bystander.pid}\n`);
    // Something of the user's own in the run directory is not Tether's to remove.
    writeFileSync(path.join(runDir, 'notes.txt'), 'mine');
    try {
      const report = await uninstallFromSshHost(specOf(host), recordingHooks());
      expect(report.stoppedPids).toEqual([daemon]);
      await waitFor('the daemon to be gone', () => !pidAlive(daemon!));
      expect(pidAlive(bystander.pid!)).toBe(true);

      expect(existsSync(path.join(host.home, '.tether'))).toBe(false);
      expect(readdirSync(runDir)).toEqual(['notes.txt']);
      expect(report.removed).toEqual(
        expect.arrayContaining([
          path.join(host.home, '.tether', 'server'),
          path.join(host.home, '.tether', 'runtime'),
          path.join(host.home, '.tether'),
          strayPidfile,
        ]),
      );
    } finally {
      bystander.kill();
    }

    // Nothing left to remove the second time.
    expect(await uninstallFromSshHost(specOf(host), recordingHooks())).toEqual({
      host: host.alias,
      stoppedPids: [],
      removed: [],
    });

    const again = await connectAndEcho(host, 'after');
    expect(again.stages.some((s) => s.stage === 'installing')).toBe(true);
    expect(installedOnHost(host, 'server')).toHaveLength(1);
    expect(installedOnHost(host, 'runtime')).toHaveLength(1);
    expect(daemonPids(host)).toHaveLength(1);
  });

  it('finds the daemon in the run directory named by the home, without an override', async () => {
    const host = await rig.startHost({ alias: 'uninstall-default', defaultRunDir: true });
    rig.trustHost(host);
    await connectAndEcho(host, 'before');
    const runDir = `/tmp/tether-${os.userInfo().uid}-${homeKey(host.home)}`;
    const [daemon] = daemonPids(host);
    expect(daemon).toBeDefined();
    expect(existsSync(runDir)).toBe(true);
    const report = await uninstallFromSshHost(specOf(host), recordingHooks());
    expect(report.stoppedPids).toEqual([daemon]);
    await waitFor('the daemon to be gone', () => !pidAlive(daemon!));
    expect(report.removed).toContain(runDir);
    expect(existsSync(runDir)).toBe(false);
    expect(existsSync(path.join(host.home, '.tether'))).toBe(false);
  });
});
