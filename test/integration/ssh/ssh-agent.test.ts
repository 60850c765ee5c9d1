// The user's SSH agent on an SSH environment, the way tmux users have it: with ForwardAgent in the
// user's ssh config, processes reach the agent of a live bridge through one stable link in the
// daemon's run directory; without it they get no SSH_AUTH_SOCK at all. The daemon itself never
// keeps the agent, display or connection variables of the bridge that started it.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, readlinkSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { daemonPids, SshTestRig, type SshdHost } from '../../support/sshd';
import { collect, untilFile, waitFor } from '../client/helpers';
import { recordingHooks, sshClient } from './ssh-helpers';

const KEY_COMMENT = 'tether-agent-test-key';

let rig: SshTestRig;
let agent: ChildProcess;
let agentSocket: string;

beforeAll(async () => {
  rig = new SshTestRig();
  agentSocket = path.join(rig.dir, 'agent.sock');
  // -D: in the foreground, so it is ours to end by its pid.
  agent = spawn('ssh-agent', ['-D', '-a', agentSocket], { stdio: 'ignore' });
  await waitFor('ssh-agent to listen', () => existsSync(agentSocket));
  const key = path.join(rig.dir, 'id_agent');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', KEY_COMMENT, '-f', key]);
  execFileSync('ssh-add', [key], { env: { ...process.env, SSH_AUTH_SOCK: agentSocket }, stdio: 'ignore' });
});
afterAll(async () => {
  await rig?.close();
  agent?.kill('SIGTERM');
});

/** A host whose client config hands ssh the test agent, forwarding it or not. */
async function agentHost(alias: string, forward: boolean): Promise<SshdHost> {
  const host = await rig.startHost({
    alias,
    identityAgent: agentSocket,
    clientLines: forward ? ['ForwardAgent yes'] : [],
    // As sshd's X11 forwarding would set it: the daemon must not keep it.
    sessionEnv: { DISPLAY: 'localhost:10.0' },
  });
  rig.trustHost(host);
  return host;
}

/** What a process started now sees: its SSH_AUTH_SOCK and what `ssh-add -l` lists through it. */
async function agentSeenBy(client: RemoteExecServerClient, host: SshdHost): Promise<string> {
  const out = collect(
    await client.startProcess({
      argv: ['/bin/sh', '-c', 'echo "sock=${SSH_AUTH_SOCK-unset}"; ssh-add -l 2>&1; echo "rc=$?"'],
      cwd: host.home,
      tty: false,
      inheritEnv: true,
    }),
  );
  await waitFor('the process to end', () => out.closed());
  return out.text();
}

function runDir(host: SshdHost): string {
  return path.join(host.home, '.tether-run');
}

/** The stable agent link of the host's daemon and the offer it leads to, or null when there is none. */
function agentLink(host: SshdHost): { link: string; offer: string } | null {
  const name = readdirSync(runDir(host)).find((n) => n.endsWith('.agent.sock'));
  if (!name) return null;
  const link = path.join(runDir(host), name);
  return { link, offer: readlinkSync(link) };
}

/** Variable names in a process's initial environment, as the kernel keeps it. */
function environNames(pid: number): string[] {
  return readFileSync(`/proc/${pid}/environ`, 'utf8')
    .split('\0')
    .filter(Boolean)
    .map((entry) => entry.slice(0, entry.indexOf('=')));
}

describe('SSH agent forwarding', () => {
  it('gives processes the agent through a stable link when the ssh config forwards it', async () => {
    const host = await agentHost('agent-yes', true);
    const client = sshClient(rig, host, recordingHooks());
    try {
      await client.connect();
      const seen = await agentSeenBy(client, host);
      const current = agentLink(host);
      expect(current).not.toBeNull();
      expect(seen).toContain(`sock=${current?.link}\n`);
      expect(seen).toContain(KEY_COMMENT);
      expect(seen).toContain('rc=0');
      const [daemon] = daemonPids(host);
      expect(daemon).toBeDefined();
      const names = environNames(daemon ?? 0);
      expect(names).toContain('HOME');
      for (const name of ['SSH_AUTH_SOCK', 'DISPLAY', 'SSH_CONNECTION', 'SSH_CLIENT']) {
        expect(names).not.toContain(name);
      }
    } finally {
      await client.close();
    }
  });

  it('gives processes no SSH_AUTH_SOCK when the ssh config does not forward the agent', async () => {
    const host = await agentHost('agent-no', false);
    const client = sshClient(rig, host, recordingHooks());
    try {
      await client.connect();
      const seen = await agentSeenBy(client, host);
      expect(seen).toContain('sock=unset\n');
      expect(seen).not.toContain(KEY_COMMENT);
      expect(agentLink(host)).toBeNull();
      const [daemon] = daemonPids(host);
      expect(environNames(daemon ?? 0)).not.toContain('DISPLAY');
    } finally {
      await client.close();
    }
  });

  it('moves the link to a live bridge when its bridge goes, and removes it when none is left', async () => {
    const host = await agentHost('agent-handover', true);
    const first = sshClient(rig, host, recordingHooks());
    let second: RemoteExecServerClient | null = null;
    let third: RemoteExecServerClient | null = null;
    try {
      await first.connect();
      const byFirst = agentLink(host)?.offer;
      expect(byFirst).toMatch(/\.agent-\d+$/);
      // Started while the first bridge is the only one; it asks the agent at the very end.
      const longLived = collect(
        await first.startProcess({
          argv: ['/bin/sh', '-c', `${untilFile('go')}; ssh-add -l 2>&1; echo "rc=$?"`],
          cwd: host.home,
          tty: false,
          inheritEnv: true,
        }),
      );

      second = sshClient(rig, host, recordingHooks());
      await second.connect();
      const bySecond = agentLink(host)?.offer;
      expect(bySecond).toMatch(/\.agent-\d+$/);
      expect(bySecond).not.toBe(byFirst);
      expect(await agentSeenBy(second, host)).toContain(KEY_COMMENT);

      // The newest bridge goes: the link leads to the first one's agent again, which is alive.
      await second.close();
      second = null;
      await waitFor('the link to return to the first bridge', () => agentLink(host)?.offer === byFirst);
      execFileSync('touch', [path.join(host.home, 'go')]);
      await waitFor('the long-lived process to end', () => longLived.closed());
      expect(longLived.text()).toContain(KEY_COMMENT);

      // No bridge left: no link, so nothing can lead to a gone session's socket.
      await first.close();
      await waitFor('the link to be removed', () => agentLink(host) === null);
      expect(readdirSync(runDir(host)).filter((n) => n.includes('.agent'))).toEqual([]);

      // A later connection brings its own agent, and processes started now use it.
      third = sshClient(rig, host, recordingHooks());
      await third.connect();
      const byThird = agentLink(host);
      expect(byThird?.offer).toMatch(/\.agent-\d+$/);
      expect(byThird?.offer).not.toBe(byFirst);
      expect(lstatSync(byThird?.link ?? '').isSymbolicLink()).toBe(true);
      expect(await agentSeenBy(third, host)).toContain(KEY_COMMENT);
    } finally {
      await first.close();
      await second?.close();
      await third?.close();
    }
  });
});
