// Fast SSH connects: a connect to a host where the server is installed and its daemon's socket is
// known runs no Tether command there (the link goes straight to the daemon's socket; else it is one
// command, the checked locate or bridge, with no probe before it), counted in the sshd's own log;
// and `tether run --ssh` signs
// in once for consecutive commands, through a shared per-host master that outlives each command
// for a while (ControlPersist) in Tether's private directory, and says so with --verbose.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSH_SHARED_MASTER_PERSIST_S } from '../../../electron/client/transports/ssh/ssh-constants';
import { TETHER_BIN } from '../../support/exec-servers';
import { SshTestRig, type SshdHost } from '../../support/sshd';
import { waitFor } from '../../support/wait';
import { recordingHooks, sshClient } from './ssh-helpers';

let rig: SshTestRig;
let host: SshdHost;
/** Shared masters the CLI left behind, ended after the tests. */
const sharedSockets: string[] = [];

beforeAll(async () => {
  rig = new SshTestRig();
  host = await rig.startHost({ alias: 'fast-host', verboseLog: true });
  rig.trustHost(host);
});
afterAll(async () => {
  for (const socket of sharedSockets) {
    spawnSync('ssh', ['-o', `ControlPath=${socket}`, '-O', 'exit', host.alias], { stdio: 'ignore' });
  }
  await rig.close();
});

/** Runs `tether ARGS…` to its end; its exit code and stderr. */
async function tether(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [TETHER_BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stderr };
}

describe('fast SSH connects', () => {
  it('runs no command on a host whose daemon it reached before: the link goes direct', async () => {
    // The first connect installs the server (the host's node runs it).
    const installing = sshClient(rig, host, recordingHooks());
    await installing.connect();
    await installing.close();

    const before = host.startedSessions();
    const hooks = recordingHooks();
    const client = sshClient(rig, host, hooks);
    try {
      await client.connect();
      const handle = await client.startProcess({ argv: ['true'], cwd: '/', tty: false });
      await new Promise<void>((resolve) => handle.subscribe((e) => e.kind === 'closed' && resolve()));
      // One session on the host, the new master's `true` under a pty (ssh-master.ts: it makes the
      // connection interactive): no probe, no check, no bridge; the daemon answered on its socket.
      expect(hooks.logs.filter((line) => line.startsWith('link: direct socket'))).toHaveLength(1);
      expect(host.startedSessions() - before).toBe(1);
      expect(hooks.stages.map((s) => s.stage)).not.toContain('checking');
      expect(hooks.stages.at(-1)?.stage).toBe('connected');
    } finally {
      await client.close();
    }
  });

  it("signs the CLI's second command in through the first one's master, and --verbose says so", async () => {
    const run = ['run', '--ssh', host.alias, '-F', rig.configFile, '--verbose', '--', 'true'];
    const logins = host.servedConnections();
    const first = await tether(run);
    expect(first.code).toBe(0);
    await waitFor(() => host.servedConnections() === logins + 1, 'the first sign-in in the sshd log');

    const sessions = host.startedSessions();
    const second = await tether(run);
    expect(second.code).toBe(0);
    const reuse = /reusing the SSH connection to fast-host \(master pid=(\d+), (\S+)\)/.exec(second.stderr);
    expect(reuse, second.stderr).not.toBeNull();
    const [, pid, socket] = reuse as unknown as [string, string, string];
    sharedSockets.push(socket);
    // No second sign-in, and no command on the host: the link went to the daemon's socket.
    expect(second.stderr).toMatch(/link: direct socket/);
    expect(host.servedConnections()).toBe(logins + 1);
    expect(host.startedSessions() - sessions).toBe(0);

    // The socket is in Tether's own 0700 directory, short enough for sun_path with ssh's
    // temporary suffix, and its master ends once idle for a while.
    const dir = statSync(path.dirname(socket));
    expect(path.dirname(socket)).toBe(path.join('/tmp', `tether-${os.userInfo().uid}`));
    expect(dir.mode & 0o777).toBe(0o700);
    expect(dir.uid).toBe(os.userInfo().uid);
    expect(socket.length + '.XXXXXXXXXXXXXXXX'.length).toBeLessThan(104);
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(argv).toContain(`ControlPersist=${SSH_SHARED_MASTER_PERSIST_S}`);
  });
});
