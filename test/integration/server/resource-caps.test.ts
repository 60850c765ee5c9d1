// The exec-server's resource caps against a real server: each one exceeded gets a clear -32600
// with data {kind: limitExceeded, limit, max}, and the server keeps serving other connections and
// sessions. Also: a client that stops reading makes the server stop taking its requests.
import { existsSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { RpcPeer, type RpcResponse } from '../../support/rpc-peer';
import { waitFor } from '../../support/wait';

const servers: StartedServer[] = [];
const clients: RpcPeer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.drop();
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function server(extraArgs: string[] = []): Promise<StartedServer> {
  const started = await startServer('tether', 'ws', { extraArgs });
  servers.push(started);
  return started;
}

async function connect(s: StartedServer): Promise<RpcPeer> {
  const c = await RpcPeer.connectWs(s.url!, { headers: s.authHeaders() });
  clients.push(c);
  return c;
}

async function session(s: StartedServer): Promise<RpcPeer> {
  const c = await connect(s);
  await c.handshake();
  return c;
}

function scratch(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-caps-'));
  dirs.push(dir);
  return dir;
}

/** How long a test watches for something that must not happen. */
const QUIET_MS = 2_000;
const uri = (file: string): string => pathToFileURL(file).href;
const start = (processId: string, argv: string[], extra: Record<string, unknown> = {}) => ({
  processId,
  argv,
  cwd: 'file:///tmp',
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  tty: false,
  ...extra,
});

function expectLimit(response: RpcResponse, limit: string, max: number): void {
  expect(response.error?.code).toBe(-32600);
  expect(response.error?.data).toEqual({ kind: 'limitExceeded', limit, max });
}

describe('exec-server resource caps', () => {
  it('sessions: at the cap an idle detached session makes room, else a new one is refused', async () => {
    const s = await server(['--max-sessions', '2']);
    const busy = await session(s);
    await busy.call('process/start', start('sleeper', ['sleep', '30']));
    const idle = await connect(s);
    const idleId = (await idle.handshake()).sessionId;
    const refused = await connect(s);
    expectLimit(await refused.request('initialize', { clientName: 'third' }), 'sessions', 2);
    // Detached with nothing running: the oldest such session gives way to a new one.
    idle.drop();
    // Once the server has seen the idle client go, a newcomer gets its place.
    await waitFor(async () => {
      const newcomer = await connect(s);
      const answer = await newcomer.request('initialize', { clientName: 'newcomer' });
      if (answer.error) expectLimit(answer, 'sessions', 2);
      return answer.error === undefined;
    }, 'a newcomer to be let in');
    const late = await connect(s);
    const resumed = await late.request('initialize', { clientName: 'late', resumeSessionId: idleId });
    expect(resumed.error?.message).toBe(`unknown session id ${idleId}`);
    // The busy session's process was never touched.
    expect(await busy.call('process/terminate', { processId: 'sleeper' })).toEqual({ running: true });
  });

  it('processes per session: refused beyond the cap, other sessions unaffected, room after one ends', async () => {
    const s = await server(['--max-processes-per-session', '2']);
    const c = await session(s);
    await c.call('process/start', start('a', ['sleep', '30']));
    await c.call('process/start', start('b', ['sleep', '30']));
    expectLimit(await c.request('process/start', start('c', ['sleep', '30'])), 'processesPerSession', 2);
    const other = await session(s);
    await other.call('process/start', start('x', ['true']));
    await c.call('process/terminate', { processId: 'a' });
    await waitFor(() => c.hasClosed('a'), 'a to close');
    await c.call('process/start', start('c', ['true']));
    await c.call('process/terminate', { processId: 'b' });
  });

  it('open files: refused beyond the cap on one connection, not on another; room after fs/close', async () => {
    const dir = scratch();
    const file = path.join(dir, 'f');
    writeFileSync(file, 'data');
    const s = await server(['--max-open-files', '2']);
    const c = await session(s);
    await c.call('fs/open', { handleId: 'h1', path: uri(file) });
    await c.call('fs/open', { handleId: 'h2', path: uri(file) });
    expectLimit(await c.request('fs/open', { handleId: 'h3', path: uri(file) }), 'openFiles', 2);
    const other = await session(s);
    await other.call('fs/open', { handleId: 'h1', path: uri(file) });
    await c.call('fs/close', { handleId: 'h1' });
    await c.call('fs/open', { handleId: 'h3', path: uri(file) });
  });

  it('queued requests: refused beyond the cap while the slots are busy; the queued ones are answered', async () => {
    const s = await server(['--concurrent-requests', '1', '--max-queued-requests', '2']);
    const c = await session(s);
    await c.call('process/start', start('p', ['sleep', '2']));
    // The one slot is held by a long poll until the process exits.
    const poll = c.request('process/read', { processId: 'p', afterSeq: 0, waitMs: 20_000 });
    const waiting = [c.request('environment/status'), c.request('environment/status')];
    const over = await c.request('environment/status');
    expectLimit(over, 'queuedRequests', 2);
    const other = await session(s);
    expect(await other.call('environment/status')).toEqual({ status: 'ready' });
    expect((await poll).result?.exited).toBe(true);
    for (const answer of await Promise.all(waiting)) expect(answer.result).toEqual({ status: 'ready' });
  });

  it('fs/readFile: a huge file is refused with a pointer to fs/open + fs/readBlock', async () => {
    const dir = scratch();
    const huge = path.join(dir, 'huge');
    writeFileSync(huge, '');
    truncateSync(huge, 40 * 1024 * 1024); // sparse: no disk used
    const small = path.join(dir, 'small');
    writeFileSync(small, 'fine');
    const c = await session(await server());
    const refused = await c.request('fs/readFile', { path: uri(huge) });
    expectLimit(refused, 'readFileBytes', 32 * 1024 * 1024);
    expect(refused.error?.message).toContain('fs/open and fs/readBlock');
    expect(await c.call('fs/readFile', { path: uri(small) })).toEqual({
      dataBase64: Buffer.from('fine').toString('base64'),
    });
  });

  it('outputWindowBytes: an absurd window is clamped, so flow control still holds the process', async () => {
    const c = await session(await server());
    const total = 20 * 1024 * 1024;
    await c.call(
      'process/start',
      start('w', ['head', '-c', String(total), '/dev/zero'], { outputWindowBytes: 1e15 }),
    );
    const produced = (): number =>
      c
        .notifications()
        .filter((n) => n.method === 'process/output' && n.params.processId === 'w')
        .reduce((sum, n) => sum + Buffer.from(n.params.chunk as string, 'base64').length, 0);
    // Unacknowledged, the output stops at the clamped window (16 MiB) and the process stays blocked.
    await waitFor(() => produced() >= 16 * 1024 * 1024, 'a full window of output', 60_000);
    const read = await c.call('process/read', { processId: 'w', afterSeq: 1e9, waitMs: 1_000 });
    expect(read.exited).toBe(false);
    expect(produced()).toBeLessThan(total);
    c.notify('process/ack', { processId: 'w', consumedBytes: total });
    await waitFor(() => c.hasClosed('w'), 'the rest once acknowledged', 60_000);
  });

  it('stops taking requests from a client that does not read, and resumes once it does', async () => {
    const dir = scratch();
    const big = path.join(dir, 'big');
    writeFileSync(big, Buffer.alloc(4 * 1024 * 1024, 0x61));
    const marker = path.join(dir, 'marker');
    const s = await server(['--concurrent-requests', '2']);
    const ws = new WebSocket(s.url!, { headers: s.authHeaders() });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answered = new Set<number>();
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { id?: number };
      if (typeof message.id === 'number') answered.add(message.id);
    });
    const send = (id: number, method: string, params?: unknown): void =>
      ws.send(JSON.stringify({ id, method, params }));
    send(1, 'initialize', { clientName: 'slow-reader' });
    await waitFor(() => answered.has(1), 'initialize');
    ws.send(JSON.stringify({ method: 'initialized' }));
    ws.pause();
    // 16 replies of about 5.6 MiB each, far more than the socket buffers and the 8 MiB bound.
    for (let id = 10; id < 26; id++) send(id, 'fs/readFile', { path: uri(big) });
    send(99, 'fs/writeFile', { path: uri(marker), dataBase64: '' });
    // The server must not get to the write while its replies pile up unread (a window for
    // something that must not happen, not a synchronisation).
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    expect(existsSync(marker)).toBe(false);
    ws.resume();
    // initialize, the 16 reads and the write: all answered (in any order) once we read.
    await waitFor(() => answered.size === 18, 'every answer once the replies are read', 60_000);
    expect(existsSync(marker)).toBe(true);
    ws.terminate();
  });
});
