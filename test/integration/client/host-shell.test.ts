// The host bootstrap is written against HostShell, not SSH: through a shell that runs its scripts
// on this machine (a stand-in for `docker exec` or any exec prefix), HostSetup probes, installs the
// server once per version, and its bridge command carries a real session.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { REMOTE_RUN_DIR_ENV, REMOTE_SERVER_ROOT } from '../../../shared/remote-bundle';
import type { HostShell } from '../../../electron/client/remote-host/host-shell';
import { bridgeCommand, HostSetup } from '../../../electron/client/remote-host/host-setup';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import type { SshHooks, SshStageEvent } from '../../../electron/client/transports/ssh/ssh-hooks';
import { collect, waitFor } from './helpers';

const root = mkdtempSync(path.join(tmpdir(), 'tether-hostshell-'));
const home = path.join(root, 'home');
const runDir = path.join(root, 'run');

/** Runs each script with sh on this machine, in a home and run directory of its own. */
const localShell: HostShell = {
  hostName: 'this machine',
  commandArgv: (script) => [
    'env',
    `HOME=${home}`,
    `${REMOTE_RUN_DIR_ENV}=${runDir}`,
    '/bin/sh',
    '-c',
    script,
  ],
  channelFailureExit: null,
};

function recordingHooks(): SshHooks & { stages: SshStageEvent[] } {
  const stages: SshStageEvent[] = [];
  return {
    stages,
    prompt: () => Promise.resolve(null),
    onStage: (event) => stages.push(event),
    onLog: () => undefined,
  };
}

afterAll(() => {
  // The bridge started a daemon that outlives it (as on a host): end it, it is ours.
  for (const name of readdirSafe(runDir).filter((n) => n.endsWith('.pid'))) {
    const pid = Number(readFileSync(path.join(runDir, name), 'utf8').trim());
    if (pid > 0) process.kill(pid, 'SIGTERM');
  }
  rmSync(root, { recursive: true, force: true });
});

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

describe('HostSetup through a HostShell that is not SSH', () => {
  it('installs once, and the bridge it builds carries a session', async () => {
    const hooks = recordingHooks();
    const launch = await new HostSetup(localShell, { sessionTtlMs: 60_000, hooks }).prepare();
    expect(hooks.stages.some((s) => s.stage === 'installing')).toBe(true);
    expect(readdirSync(path.join(home, REMOTE_SERVER_ROOT))).toHaveLength(1);
    expect(launch.serverPath.startsWith(path.join(home, REMOTE_SERVER_ROOT))).toBe(true);

    // A second preparation finds the same version in place and uploads nothing.
    const again = recordingHooks();
    expect(await new HostSetup(localShell, { sessionTtlMs: 60_000, hooks: again }).prepare()).toEqual(launch);
    expect(again.stages.some((s) => s.stage === 'installing')).toBe(false);

    const { argv } = bridgeCommand(localShell, launch, 60_000, false);
    const client = new RemoteExecServerClient({ transport: { kind: 'stdio', command: argv } });
    try {
      await client.connect();
      const handle = await client.startProcess({
        argv: ['/bin/sh', '-c', 'echo hello-from-the-shell'],
        cwd: '/',
        tty: false,
      });
      const out = collect(handle);
      await waitFor('the process to close', () => out.closed());
      expect(out.text()).toContain('hello-from-the-shell');
    } finally {
      await client.close();
    }
  });
});
