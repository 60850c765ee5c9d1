// Children never outlive the server: every process group it started (pipes and ptys, with their
// grandchildren) is gone after the server ends by SIGHUP, and also after a SIGKILL, when only the
// orphan watchdog is left to do it. A grandchild that left the process group with setsid still
// ends when its process is terminated, or its session expires. Checked by pid.
import { readFileSync } from 'node:fs';
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

  describe('a grandchild that called setsid', () => {
    // setsid execs in place (the shell's background child leads no group), so $! is its pid.
    const ESCAPEE = 'setsid sleep 1000 </dev/null >/dev/null 2>&1 & echo "kid $!"; sleep 1000';

    /** The session id (field 6 of /proc/<pid>/stat). */
    const sessionOf = (pid: number): number =>
      Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[3]);

    async function startEscapee(
      extraArgs: string[],
      tty: boolean,
    ): Promise<{ c: RpcPeer; leader: number; kid: number }> {
      const server = await startServer('tether', 'ws', { extraArgs });
      servers.push(server);
      const c = await RpcPeer.connectWs(server.url!, { headers: server.authHeaders() });
      clients.push(c);
      await c.handshake();
      const result = await c.call('process/start', {
        processId: 'escapee',
        argv: ['/bin/sh', '-c', ESCAPEE],
        cwd: 'file:///tmp',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
        tty,
      });
      const leader = result.pid as number;
      await waitFor(() => /kid \d+/.test(c.outputOf('escapee')), 'the escapee pid');
      const kid = Number(/kid (\d+)/.exec(c.outputOf('escapee'))?.[1]);
      started.push(leader, kid);
      await waitFor(() => sessionOf(kid) === kid, 'the grandchild to lead a session of its own');
      expect(sessionOf(kid)).not.toBe(sessionOf(leader));
      return { c, leader, kid };
    }

    for (const tty of [false, true]) {
      it(`ends with its process on terminate (${tty ? 'pty' : 'pipes'})`, async () => {
        const { c, leader, kid } = await startEscapee([], tty);
        expect(await c.call('process/terminate', { processId: 'escapee' })).toEqual({ running: true });
        await waitFor(() => !pidAlive(kid) && !pidAlive(leader), 'the escapee to be gone', GONE_WITHIN_MS);
      });
    }

    it("ends when its process's session expires", async () => {
      const { c, kid } = await startEscapee(['--session-ttl-ms', '500'], false);
      c.drop();
      await waitFor(() => !pidAlive(kid), 'the escapee to be gone with its session', GONE_WITHIN_MS);
    });
  });
});
