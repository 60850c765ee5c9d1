// The SSH bootstrap against real sshd hosts: a fresh install on a host without node (the runtime is
// uploaded) gives a working pty; a second connect uploads nothing; a host with node ≥ 20 gets no
// runtime; login noise does not confuse the probe or the bridge; a ProxyJump hop works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { SshTestRig, type SshdHost } from '../../support/sshd';
import { collect, waitFor } from '../client/helpers';
import { installedOnHost, recordingHooks, sshClient } from './ssh-helpers';

let rig: SshTestRig;
beforeAll(() => {
  rig = new SshTestRig();
});
afterAll(async () => {
  await rig.close();
});

/** Runs `echo` under a pty through a connected client and returns its output. */
async function ptyEcho(client: ReturnType<typeof sshClient>, word: string): Promise<string> {
  const handle = await client.startProcess({ argv: ['/bin/sh', '-c', `echo ${word}`], cwd: '/', tty: true });
  const out = collect(handle);
  await waitFor('the pty process to close', () => out.closed());
  return out.text();
}

describe('SSH install', () => {
  let nodeless: SshdHost;

  it('installs the server and a Node runtime on a host without node, and a pty works', async () => {
    nodeless = await rig.startHost({ alias: 'nodeless', noNode: true });
    rig.trustHost(nodeless);
    // The rig really hides node from the host's sessions.
    const which = execFileSync('ssh', [...rig.sshOptions, nodeless.alias, 'command -v node || echo none'], {
      encoding: 'utf8',
    });
    expect(which.trim()).toBe('none');

    const hooks = recordingHooks();
    const client = sshClient(rig, nodeless, hooks);
    try {
      await client.connect();
      expect(await ptyEcho(client, 'hello-from-ssh')).toContain('hello-from-ssh');
    } finally {
      await client.close();
    }
    expect(hooks.prompts).toEqual([]);
    expect(hooks.stages.map((s) => s.stage).filter((s, i, all) => all[i - 1] !== s)).toEqual([
      'connecting',
      'authenticating',
      'checking',
      'installing',
      'starting',
      'connected',
    ]);
    const last = hooks.stages.filter((s) => s.stage === 'installing').at(-1);
    expect(last?.bytesSent).toBe(last?.bytesTotal);
    expect(installedOnHost(nodeless, 'server')).toHaveLength(1);
    expect(installedOnHost(nodeless, 'runtime')).toEqual(['node-v22.23.5-linux-x64']);
  });

  it('uploads nothing on the second connect', async () => {
    const hooks = recordingHooks();
    const client = sshClient(rig, nodeless, hooks);
    try {
      await client.connect();
      expect(await ptyEcho(client, 'again')).toContain('again');
    } finally {
      await client.close();
    }
    expect(hooks.stages.some((s) => s.stage === 'installing')).toBe(false);
  });

  it('uses the host node (≥ 20) and uploads no runtime', async () => {
    const host = await rig.startHost({ alias: 'withnode' });
    rig.trustHost(host);
    const hooks = recordingHooks();
    const client = sshClient(rig, host, hooks);
    try {
      await client.connect();
      expect(await ptyEcho(client, 'host-node')).toContain('host-node');
    } finally {
      await client.close();
    }
    expect(installedOnHost(host, 'server')).toHaveLength(1);
    expect(installedOnHost(host, 'runtime')).toEqual([]);
    expect(hooks.logs.some((line) => line.includes('with node /usr/bin/node'))).toBe(true);
  });

  it('ignores a chatty .bashrc (noise on stdout and stderr, with and without newlines)', async () => {
    const host = await rig.startHost({
      alias: 'chatty',
      bashrc: 'echo "Welcome to the chatty host"\nprintf "no newline here"\necho "to stderr" >&2\n',
    });
    rig.trustHost(host);
    // bash really prints the noise for non-interactive ssh commands on this host.
    const plain = execFileSync('ssh', [...rig.sshOptions, host.alias, 'true'], { encoding: 'utf8' });
    expect(plain).toContain('Welcome to the chatty host');
    const complaints: string[] = [];
    const client = sshClient(rig, host, recordingHooks(), { log: (line) => complaints.push(line) });
    try {
      await client.connect();
      expect(await ptyEcho(client, 'quiet')).toContain('quiet');
    } finally {
      await client.close();
    }
    // Not one line of the noise reached the protocol stream.
    expect(complaints).toEqual([]);
  });

  it('reaches a host through a ProxyJump to a second sshd', async () => {
    const jump = await rig.startHost({ alias: 'jump' });
    rig.trustHost(jump);
    const target = await rig.startHost({ alias: 'behind-jump', clientLines: ['ProxyJump jump'] });
    rig.trustHost(target);
    const client = sshClient(rig, target, recordingHooks());
    try {
      await client.connect();
      expect(await ptyEcho(client, 'jumped')).toContain('jumped');
    } finally {
      await client.close();
    }
    // The hop really went through the jump host's sshd: it served a connection (a child process).
    expect(jump.servedConnections()).toBeGreaterThan(0);
  });
});
