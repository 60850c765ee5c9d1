// The `tetherSessionProcesses` extension against the real server: a client sees and attaches to
// the processes of other sessions of the same credential (token, JWT subject, unix-socket owner)
// and nobody else's; attached it reads from the start, gets live output and drives the process;
// `process/keep` moves the process under its session, out of reach of the owner's expiry.
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { pidAlive } from '../../support/pids';
import { RpcPeer, shellStartParams, UpgradeRefusedError } from '../../support/rpc-peer';
import { waitFor } from '../../support/wait';

interface Listed {
  sessions: Array<{
    sessionId: string;
    clientName: string;
    current: boolean;
    processes: Array<{
      processId: string;
      argv: string[];
      cwd: string;
      state: string;
      exitCode: number | null;
      pid: number;
      startedAt: number;
    }>;
  }>;
}

const peers: RpcPeer[] = [];
const servers: StartedServer[] = [];

afterAll(async () => {
  for (const peer of peers) peer.drop();
  await Promise.all(servers.map((s) => s.stop()));
});

async function peer(url: string, headers: Record<string, string>, clientName: string): Promise<RpcPeer> {
  const connected = await RpcPeer.connectWs(url, { headers });
  peers.push(connected);
  await connected.call('initialize', { clientName });
  connected.notify('initialized', {});
  return connected;
}

/** The output of `processId` as `process/read` from seq 0 returns it. */
async function readAll(client: RpcPeer, processId: string): Promise<string> {
  const read = await client.call<{ chunks: Array<{ chunk: string }> }>('process/read', {
    processId,
    afterSeq: 0,
  });
  return read.chunks.map((c) => Buffer.from(c.chunk, 'base64').toString()).join('');
}

describe('sessions of one capability token', () => {
  let server: StartedServer;
  beforeAll(async () => {
    server = await startServer('tether', 'ws', { extraArgs: ['--session-ttl-ms', '1500'] });
    servers.push(server);
  });

  it('lists the other session, attaches from the start, then live, and drives it', async () => {
    const agent = await peer(server.url!, server.authHeaders(), 'codex-agent');
    const info = await agent.call<{ capabilities: Record<string, unknown> }>('environment/info');
    expect(info.capabilities.tetherSessionProcesses).toBe(true);
    await agent.call(
      'process/start',
      shellStartParams('job', 'echo started; while read line; do echo "got $line"; done'),
    );
    await waitFor(() => agent.outputOf('job').includes('started'), 'first output');

    const watcher = await peer(server.url!, server.authHeaders(), 'tether-app');
    await watcher.call('session/subscribe', {});
    const listed = await watcher.call<Listed>('session/list', {});
    const agentSession = listed.sessions.find((s) => s.clientName === 'codex-agent')!;
    expect(agentSession.current).toBe(false);
    expect(listed.sessions.find((s) => s.clientName === 'tether-app')?.current).toBe(true);
    const job = agentSession.processes[0]!;
    expect(job).toMatchObject({ processId: 'job', cwd: '/tmp', state: 'running', exitCode: null });
    expect(job.argv.at(-1)).toContain('while read line');
    expect(Math.abs(Date.now() - job.startedAt)).toBeLessThan(60_000);

    const attached = await watcher.call('process/attach', {
      sessionId: agentSession.sessionId,
      processId: 'job',
      attachId: 'watched',
    });
    expect(attached).toMatchObject({ processId: 'job', state: 'running' });
    expect(await readAll(watcher, 'watched')).toBe('started\n');

    // Input from the watcher reaches the process; both sessions see the answer live.
    expect(
      await watcher.call('process/write', {
        processId: 'watched',
        chunk: Buffer.from('hello\n').toString('base64'),
        writeId: 'w1',
      }),
    ).toEqual({ status: 'accepted' });
    await waitFor(() => watcher.outputOf('watched').includes('got hello'), 'live output at the watcher');
    await waitFor(() => agent.outputOf('job').includes('got hello'), 'live output at the owner');

    // A process of the agent starting and ending is announced to the subscriber.
    await agent.call('process/start', shellStartParams('short', 'exit 3'));
    await watcher.notification(
      'session/processChanged',
      (p) => p.processId === 'short' && p.state === 'running',
    );
    await watcher.notification(
      'session/processChanged',
      (p) => p.processId === 'short' && p.state === 'closed',
    );
    const after = await watcher.call<Listed>('session/list', {});
    const short = after.sessions
      .find((s) => s.clientName === 'codex-agent')!
      .processes.find((p) => p.processId === 'short');
    expect(short).toMatchObject({ state: 'closed', exitCode: 3 });

    await watcher.call('process/signal', { processId: 'watched', signal: 'terminate' });
    await watcher.notification('process/exited', (p) => p.processId === 'watched');
    await agent.notification('process/exited', (p) => p.processId === 'job');
  });

  it('process/keep moves a process under the watcher: the owner expiring no longer ends it', async () => {
    const owner = await peer(server.url!, server.authHeaders(), 'owner');
    const { pid: keptPid } = await owner.call<{ pid: number }>(
      'process/start',
      shellStartParams('kept', 'sleep 60'),
    );
    const { pid: leftPid } = await owner.call<{ pid: number }>(
      'process/start',
      shellStartParams('left', 'sleep 60'),
    );
    const ownerId = (await owner.call<Listed>('session/list', {})).sessions.find((s) => s.current)!.sessionId;

    const watcher = await peer(server.url!, server.authHeaders(), 'keeper');
    await watcher.call('process/attach', { sessionId: ownerId, processId: 'kept', attachId: 'mine' });
    await watcher.call('process/attach', { sessionId: ownerId, processId: 'left', attachId: 'theirs' });
    await watcher.call('process/keep', { processId: 'mine' });
    const listed = await watcher.call<Listed>('session/list', {});
    expect(listed.sessions.find((s) => s.current)!.processes.map((p) => p.processId)).toEqual(['mine']);

    // The owner goes away; its session expires after --session-ttl-ms and kills what it owns.
    owner.drop();
    await waitFor(() => !pidAlive(leftPid), 'the process the owner kept to die with its session', 15_000);
    await watcher.notification('process/exited', (p) => p.processId === 'theirs');
    expect(pidAlive(keptPid)).toBe(true);
    expect(
      (await watcher.call<Listed>('session/list', {})).sessions.some((s) => s.sessionId === ownerId),
    ).toBe(false);
    await watcher.call('process/terminate', { processId: 'mine' });
  });
});

describe('who sees what', () => {
  it('a wrong token is refused outright: it reaches no session at all', async () => {
    const server = await startServer('tether', 'ws');
    servers.push(server);
    await expect(
      RpcPeer.connectWs(server.url!, { headers: { Authorization: 'Bearer not-the-token' } }),
    ).rejects.toBeInstanceOf(UpgradeRefusedError);
  });

  it('JWT subjects are principals: another subject cannot list, attach to or resume a session', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-jwt-'));
    const secret = 'an HS256 secret of at least 32 bytes!!';
    writeFileSync(path.join(dir, 'secret'), secret, { mode: 0o600 });
    const server = await startServer('tether', 'ws', {
      extraArgs: ['--ws-auth', 'signed-bearer-token', '--ws-shared-secret-file', path.join(dir, 'secret')],
    });
    servers.push(server);
    const bearer = (sub: string) => {
      const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
      const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub, exp: Date.now() / 1000 + 600 })}`;
      return {
        Authorization: `Bearer ${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`,
      };
    };
    const alice = await peer(server.url!, bearer('alice'), 'alice-agent');
    await alice.call('process/start', shellStartParams('p', 'sleep 30'));
    const aliceId = (await alice.call<Listed>('session/list', {})).sessions[0]!.sessionId;
    const aliceAgain = await peer(server.url!, bearer('alice'), 'alice-app');
    expect(
      (await aliceAgain.call<Listed>('session/list', {})).sessions.map((s) => s.clientName).sort(),
    ).toEqual(['alice-agent', 'alice-app']);

    const bob = await peer(server.url!, bearer('bob'), 'bob');
    await bob.call('session/subscribe', {});
    expect((await bob.call<Listed>('session/list', {})).sessions.map((s) => s.clientName)).toEqual(['bob']);
    const attach = await bob.request('process/attach', { sessionId: aliceId, processId: 'p', attachId: 'x' });
    expect(attach.error).toEqual({ code: -32600, message: `unknown session id ${aliceId}` });
    const resume = await RpcPeer.connectWs(server.url!, { headers: bearer('bob') });
    peers.push(resume);
    expect(
      (await resume.request('initialize', { clientName: 'bob', resumeSessionId: aliceId })).error?.message,
    ).toBe(`unknown session id ${aliceId}`);
    await alice.call('process/start', shellStartParams('q', 'true'));
    await aliceAgain.call('session/subscribe', {});
    await alice.call('process/start', shellStartParams('r', 'true'));
    await aliceAgain.notification('session/processChanged', (p) => p.processId === 'r');
    expect(bob.notifications('session/processChanged')).toEqual([]);
    await alice.call('process/terminate', { processId: 'p' });
    rmSync(dir, { recursive: true, force: true });
  });

  it('unix-socket connections are the socket owner: they see each other', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-sock-'));
    const socketPath = path.join(dir, 's.sock');
    const server = await startServer('tether', 'stdio', { listen: `unix:${socketPath}` });
    servers.push(server);
    await waitFor(async () => {
      try {
        await unixPeer(socketPath).then((p) => p.drop());
        return true;
      } catch {
        return false;
      }
    }, 'the unix socket');
    const first = await unixPeer(socketPath);
    await first.call('initialize', { clientName: 'daemon-client-1' });
    first.notify('initialized', {});
    const second = await unixPeer(socketPath);
    await second.call('initialize', { clientName: 'daemon-client-2' });
    second.notify('initialized', {});
    const names = (await second.call<Listed>('session/list', {})).sessions.map((s) => s.clientName);
    expect(names).toEqual(expect.arrayContaining(['daemon-client-1', 'daemon-client-2']));
    rmSync(dir, { recursive: true, force: true });
  });
});

/** A JSON-RPC peer on a unix socket (the daemon's newline-delimited JSON). */
function unixPeer(socketPath: string): Promise<RpcPeer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.once('error', reject);
    socket.once('connect', () => {
      const connected = RpcPeer.overStdio({ stdin: socket, stdout: socket } as unknown as ChildProcess);
      peers.push(connected);
      resolve(connected);
    });
  });
}
