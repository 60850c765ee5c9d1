// Children never outlive the server: every process group it started (pipes and ptys, with their
// grandchildren) is gone after the server ends by SIGHUP, and also after a SIGKILL, when only the
// orphan watchdog is left to do it. Checked by pid.
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { pidAlive } from '../../support/pids';
import { RpcPeer } from '../../support/rpc-peer';
import { waitFor } from '../../support/wait';

const servers: StartedServer[] = [];
const clients: RpcPeer[] = [];
/** Every pid a test saw its server start, killed afterwards if a test left one behind. */
const started: number[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.drop();
  for (const pid of started.splice(0)) {
    if (pidAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

/** How long the processes of a dead server may take to go. */
const GONE_WITHIN_MS = 15_000;
// Two background grandchildren that print their pids and keep nothing open towards the server,
// so only a kill of their process group ends them.
const FAMILY =
  'sleep 300 </dev/null >/dev/null 2>&1 & echo "kid $!"; sleep 300 </dev/null >/dev/null 2>&1 & echo "kid $!"; wait';

async function serverWithFamilies(): Promise<{ server: StartedServer; pids: number[] }> {
  const server = await startServer('tether', 'ws');
  servers.push(server);
  const c = await RpcPeer.connectWs(server.url!, { headers: server.authHeaders() });
  clients.push(c);
  await c.handshake();
  const pids: number[] = [];
  for (const tty of [false, true]) {
    const processId = tty ? 'pty' : 'pipes';
    const result = await c.call('process/start', {
      processId,
      argv: ['/bin/sh', '-c', FAMILY],
      cwd: 'file:///tmp',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      tty,
    });
    pids.push(result.pid as number);
    await waitFor(() => (c.outputOf(processId).match(/kid \d+/g) ?? []).length === 2, `${processId} kids`);
    for (const match of c.outputOf(processId).matchAll(/kid (\d+)/g)) pids.push(Number(match[1]));
  }
  started.push(...pids);
  expect(pids.every(pidAlive)).toBe(true);
  return { server, pids };
}

async function serverExit(server: StartedServer): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  await new Promise((resolve) => server.child.once('exit', resolve));
}

describe('children of the exec-server', () => {
  it('are all gone, grandchildren included, after the server is SIGKILLed', async () => {
    const { server, pids } = await serverWithFamilies();
    server.child.kill('SIGKILL');
    await serverExit(server);
    await waitFor(
      () => !pids.some(pidAlive),
      'every process of the killed server to be gone',
      GONE_WITHIN_MS,
    );
  });

  it('are all gone after SIGHUP, which ends the server like SIGTERM', async () => {
    const { server, pids } = await serverWithFamilies();
    server.child.kill('SIGHUP');
    await serverExit(server);
    expect(server.child.exitCode).toBe(0);
    await waitFor(
      () => !pids.some(pidAlive),
      'every process of the hung-up server to be gone',
      GONE_WITHIN_MS,
    );
  });
});
