import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { FaultProxy } from '../../support/fault-proxy';
import { pidAlive } from '../../support/pids';
import { RpcPeer } from '../../support/rpc-peer';
import { waitFor } from '../../support/wait';

const servers: StartedServer[] = [];
const clients: RpcPeer[] = [];

async function server(extraArgs: string[] = []): Promise<StartedServer> {
  const started = await startServer('tether', 'ws', { extraArgs });
  servers.push(started);
  return started;
}

/** A client of `s`, at its own URL or at `url` (a proxy in front of it), with its token. */
async function client(s: StartedServer, url = s.url!): Promise<RpcPeer> {
  const connected = await RpcPeer.connectWs(url, { headers: s.authHeaders() });
  clients.push(connected);
  return connected;
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.drop();
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

const cwd = 'file:///tmp';
const start = (processId: string, argv: string[], extra: Record<string, unknown> = {}) => ({
  processId,
  argv,
  cwd,
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  tty: false,
  ...extra,
});

describe('exec-server over WebSocket: handshake and envelope', () => {
  it('gates methods on initialize/initialized and validates params first', async () => {
    const c = await client(await server());
    expect((await c.request('environment/status')).error).toEqual({
      code: -32600,
      message: 'client must call initialize before using environment status methods',
    });
    expect((await c.request('process/start', {})).error?.code).toBe(-32602);
    const bad = await c.request('initialize', { clientName: 'x', resumeSessionId: 'nope' });
    expect(bad.error).toEqual({ code: -32600, message: 'unknown session id nope' });
    const init = await c.request('initialize', { clientName: 'x' });
    expect(init.result?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const info = init.result?.environmentInfo as { capabilities: Record<string, unknown>; cwd: string };
    expect(info.capabilities.tetherFlowControl).toBe(true);
    // Tether's extension: the detached-session lifetime, 3 h unless --session-ttl-ms says otherwise.
    expect(info.capabilities.tetherSessionTtlMs).toBe(3 * 60 * 60 * 1000);
    expect(info.cwd.startsWith('file:///')).toBe(true);
    expect((await c.request('process/read', { processId: 'p' })).error?.message).toBe(
      'client must send initialized before using exec methods',
    );
    expect((await c.request('initialize', { clientName: 'x' })).error?.message).toBe(
      'initialize may only be sent once per connection',
    );
    c.notify('initialized', {});
    expect(await c.call('environment/status')).toEqual({ status: 'ready' });
    expect((await c.request('foo/bar', {})).error).toEqual({
      code: -32601,
      message: 'exec-server stub does not implement `foo/bar` yet',
    });
  });

  it('answers undecodable input with -32600 id -1, echoes ids exactly, and drops violators', async () => {
    const s = await server();
    const c = await client(s);
    await c.handshake();
    const answered = c.responses().length;
    c.sendText('not json');
    c.sendText('[{"id":1,"method":"environment/status"}]');
    c.sendText('{"id":9007199254740993,"method":"environment/status"}');
    c.sendText('{"id":"s","jsonrpc":"1.0","method":"environment/status"}');
    await waitFor(() => c.responses().length >= answered + 4, 'four responses');
    expect(
      c
        .responses()
        .filter((r) => r.id === -1)
        .map((r) => r.error?.code),
    ).toEqual([-32600, -32600]);
    expect(c.responses().filter((r) => r.id === -1)[0]!.error!.message).toMatch(
      /^failed to parse websocket JSON-RPC message from exec-server websocket 127\.0\.0\.1:\d+: /,
    );
    expect(c.responses().some((r) => r.id === 's' && r.result?.status === 'ready')).toBe(true);
    expect(c.responses().some((r) => String(r.id) === '9007199254740992')).toBe(true);

    const violator = await client(s);
    await violator.handshake();
    violator.notify('something/else', {});
    await waitFor(() => violator.isClosed, 'connection dropped');
    expect(await c.call('environment/status')).toEqual({ status: 'ready' });
  });
});

describe('exec-server over WebSocket: processes', () => {
  it('streams output, exit and close with one seq counter, and serves process/read', async () => {
    const c = await client(await server());
    await c.handshake();
    const started = await c.call(
      'process/start',
      start('p1', ['/bin/sh', '-c', 'echo hi; echo oops >&2; exit 3']),
    );
    expect(started).toMatchObject({ processId: 'p1', sandboxType: 'none' });
    expect(started.pid).toBeGreaterThan(0);
    await waitFor(() => c.hasClosed('p1'), 'p1 closed');
    const read = await c.call('process/read', { processId: 'p1', afterSeq: 0 });
    expect(read).toMatchObject({ nextSeq: 5, exited: true, exitCode: 3, closed: true, failure: null });
    const text = (read.chunks as { chunk: string }[]).map((x) => Buffer.from(x.chunk, 'base64').toString());
    expect(text.sort()).toEqual(['hi\n', 'oops\n']);
    expect((await c.request('process/start', start('p1', ['true']))).error).toEqual({
      code: -32600,
      message: 'process p1 already exists',
    });
    const missing = await c.request('process/start', start('m', ['definitely-not-a-program']));
    expect(missing.error).toMatchObject({ code: -32603, data: { kind: 'spawnNotFound' } });
    expect((await c.request('process/read', { processId: 'm' })).error?.message).toBe('unknown process id m');
    expect((await c.request('process/start', start('e', []))).error?.message).toBe('argv must not be empty');
  });

  it('dedups writes by writeId, reports stdin states, and signals process groups', async () => {
    const c = await client(await server());
    await c.handshake();
    await c.call('process/start', start('cat', ['cat'], { pipeStdin: true }));
    const hello = Buffer.from('hello\n').toString('base64');
    expect(await c.call('process/write', { processId: 'cat', chunk: hello, writeId: 'w1' })).toEqual({
      status: 'accepted',
    });
    expect(await c.call('process/write', { processId: 'cat', chunk: hello, writeId: 'w1' })).toEqual({
      status: 'accepted',
    });
    // cat echoes in order, so once this arrives, a second hello would have arrived before it.
    const bye = Buffer.from('bye\n').toString('base64');
    expect(await c.call('process/write', { processId: 'cat', chunk: bye, writeId: 'w3' })).toEqual({
      status: 'accepted',
    });
    await waitFor(() => c.outputOf('cat').endsWith('bye\n'), 'echo');
    expect(
      (await c.request('process/write', { processId: 'cat', chunk: '!!', writeId: 'w2' })).error?.code,
    ).toBe(-32602);
    expect(
      (await c.request('process/write', { processId: 'cat', chunk: '', writeId: '' })).error?.message,
    ).toBe('writeId must not be empty');
    expect(await c.call('process/write', { processId: 'zz', chunk: '', writeId: 'w' })).toEqual({
      status: 'unknownProcess',
    });
    await c.call('process/signal', { processId: 'cat', signal: 'interrupt' });
    await waitFor(() => c.hasClosed('cat'), 'cat closed');
    const exited = c
      .notifications()
      .find((n) => n.method === 'process/exited' && n.params.processId === 'cat');
    expect(exited?.params.exitCode).toBe(130);
    // All of cat's output is known now: the duplicate w1 was not written.
    expect(c.outputOf('cat')).toBe('hello\nbye\n');
    expect(await c.call('process/write', { processId: 'cat', chunk: hello, writeId: 'w9' })).toEqual({
      status: 'accepted',
    });

    await c.call('process/start', start('nostdin', ['sleep', '30']));
    expect(await c.call('process/write', { processId: 'nostdin', chunk: '', writeId: 'w' })).toEqual({
      status: 'stdinClosed',
    });
    expect(await c.call('process/terminate', { processId: 'nostdin' })).toEqual({ running: true });
    await waitFor(() => c.hasClosed('nostdin'), 'terminated');
    expect(await c.call('process/terminate', { processId: 'nostdin' })).toEqual({ running: false });
  });

  it('runs tty processes with the requested size and resizes them', async () => {
    const c = await client(await server());
    await c.handshake();
    const script = 'stty size; read line; stty size';
    await c.call(
      'process/start',
      start('t', ['/bin/sh', '-c', script], { tty: true, size: { cols: 100, rows: 30 } }),
    );
    await waitFor(() => c.outputOf('t').includes('30 100'), 'initial size');
    await c.call('process/resize', { processId: 't', cols: 120, rows: 40 });
    await c.call('process/write', {
      processId: 't',
      chunk: Buffer.from('\r').toString('base64'),
      writeId: '1',
    });
    await waitFor(() => c.outputOf('t').includes('40 120'), 'resized');
    await c.call('process/start', start('plain', ['true']));
    expect((await c.request('process/resize', { processId: 'plain', cols: 10, rows: 10 })).error?.code).toBe(
      -32600,
    );
  });

  it('delivers every byte a tty process wrote before exiting', async () => {
    const c = await client(await server());
    await c.handshake();
    const size = 4 * 1024 * 1024;
    const ids = ['z1', 'z2', 'z3'];
    for (const id of ids) {
      await c.call('process/start', start(id, ['head', '-c', String(size), '/dev/zero'], { tty: true }));
    }
    await waitFor(() => ids.every((id) => c.hasClosed(id)), 'all closed', 30_000);
    for (const id of ids) {
      const bytes = c
        .notifications()
        .filter((n) => n.method === 'process/output' && n.params.processId === id)
        .reduce((sum, n) => sum + Buffer.from(n.params.chunk as string, 'base64').length, 0);
      expect(bytes).toBe(size);
    }
  });

  it('serves requests concurrently: a long poll does not block other calls', async () => {
    const c = await client(await server());
    await c.handshake();
    await c.call('process/start', start('slow', ['sleep', '30']));
    let pollDone = false;
    const poll = c
      .request('process/read', { processId: 'slow', waitMs: 20_000 })
      .then(() => (pollDone = true));
    expect(await c.call('environment/status')).toEqual({ status: 'ready' });
    expect(pollDone).toBe(false);
    await c.call('process/terminate', { processId: 'slow' });
    await poll;
  });
});

describe('exec-server over WebSocket: detach and resume', () => {
  it('keeps processes running while detached and recovers their output with process/read', async () => {
    const s = await server();
    const first = await client(s);
    const sessionId = (await first.handshake()).sessionId;
    await first.call('process/start', start('late', ['/bin/sh', '-c', 'sleep 1; echo late']));
    first.drop();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const second = await client(s);
    expect((await second.handshake(sessionId)).sessionId).toBe(sessionId);
    let read = await second.call('process/read', { processId: 'late', afterSeq: 0, waitMs: 5000 });
    await waitFor(async () => {
      read = await second.call('process/read', { processId: 'late', afterSeq: 0, waitMs: 1000 });
      return read.closed === true;
    }, 'late closed');
    const chunks = read.chunks as { chunk: string }[];
    expect(Buffer.from(chunks[0]!.chunk, 'base64').toString()).toBe('late\n');
    expect(second.notifications().filter((n) => n.method === 'process/output')).toHaveLength(0);
  });

  it('refuses to resume an attached session with -32010', async () => {
    const s = await server();
    const first = await client(s);
    const sessionId = (await first.handshake()).sessionId;
    const second = await client(s);
    const refused = await second.request('initialize', { clientName: 'x', resumeSessionId: sessionId });
    expect(refused.error).toEqual({
      code: -32010,
      message: `session ${sessionId} is already attached to another connection`,
    });
    expect((await second.handshake()).sessionId).not.toBe(sessionId);
  });

  it('hands the session to a resume when the attached connection went silent (half-open route)', async () => {
    const s = await server();
    const proxy = await FaultProxy.forUrl(s.url!);
    try {
      const first = await client(s, proxy.url());
      const sessionId = (await first.handshake()).sessionId;
      await first.call('process/start', start('tick', ['/bin/sh', '-c', 'sleep 0.5; echo after']));
      proxy.stall('existing');
      const second = await client(s);
      expect((await second.handshake(sessionId)).sessionId).toBe(sessionId);
      let read: Record<string, unknown> = {};
      await waitFor(async () => {
        read = await second.call('process/read', { processId: 'tick', afterSeq: 0, waitMs: 1000 });
        return read.closed === true;
      }, 'tick closed');
      const chunks = read.chunks as { chunk: string }[];
      expect(Buffer.from(chunks[0]!.chunk, 'base64').toString()).toBe('after\n');
    } finally {
      await proxy.close();
    }
  });

  it('keeps a process that closed while detached readable until the resume, then reaps it', async () => {
    const s = await server(['--exited-process-ttl-ms', '300']);
    const first = await client(s);
    const sessionId = (await first.handshake()).sessionId;
    await first.call('process/start', start('ends', ['/bin/sh', '-c', 'echo bye']));
    first.drop();
    // A clock without sleeping: a process of another, attached session that closed later than
    // `ends` has been reaped, so the exited-process TTL of `ends` has passed too.
    const other = await client(s);
    await other.handshake();
    await other.call('process/start', start('clock', ['true']));
    await waitFor(async () => {
      const read = await other.request('process/read', { processId: 'clock', afterSeq: 0 });
      return read.error !== undefined;
    }, 'the other session reaps its closed process');
    const second = await client(s);
    expect((await second.handshake(sessionId)).sessionId).toBe(sessionId);
    const read = await second.call('process/read', { processId: 'ends', afterSeq: 0 });
    const chunks = read.chunks as { chunk: string }[];
    expect(chunks.map((c) => Buffer.from(c.chunk, 'base64').toString()).join('')).toBe('bye\n');
    expect(read).toMatchObject({ exitCode: 0, closed: true });
    // Attached again, the process is reaped like any other.
    await waitFor(async () => {
      const again = await second.request('process/read', { processId: 'ends', afterSeq: 0 });
      return again.error !== undefined;
    }, 'the resumed session reaps it');
  });

  it('keeps a closed process readable while its attached client is silent (suspended)', async () => {
    const s = await server(['--exited-process-ttl-ms', '1000']);
    const proxy = await FaultProxy.forUrl(s.url!);
    try {
      const first = await client(s, proxy.url());
      const sessionId = (await first.handshake()).sessionId;
      await first.call('process/start', start('ends', ['/bin/sh', '-c', 'echo bye']));
      // Still attached, but nothing gets through any more: a client whose process is stopped.
      proxy.stall('existing');
      // The clock of the test above: the TTL of `ends` has passed once this later one was reaped.
      const other = await client(s);
      await other.handshake();
      await other.call('process/start', start('clock', ['true']));
      await waitFor(async () => {
        const read = await other.request('process/read', { processId: 'clock', afterSeq: 0 });
        return read.error !== undefined;
      }, 'the other session reaps its closed process');
      // The client comes back on a new connection; the silent one is dropped (it fails its ping).
      const second = await client(s);
      expect((await second.handshake(sessionId)).sessionId).toBe(sessionId);
      const read = await second.call('process/read', { processId: 'ends', afterSeq: 0 });
      const chunks = read.chunks as { chunk: string }[];
      expect(chunks.map((c) => Buffer.from(c.chunk, 'base64').toString()).join('')).toBe('bye\n');
      expect(read).toMatchObject({ exitCode: 0, closed: true });
    } finally {
      await proxy.close();
    }
  });

  it('kills the processes of a session nobody resumes within the TTL', async () => {
    const s = await server(['--session-ttl-ms', '800']);
    const c = await client(s);
    const sessionId = (await c.handshake()).sessionId;
    const init = await (await client(s)).call('initialize', { clientName: 'x' });
    const info = init.environmentInfo as { capabilities: Record<string, unknown> };
    expect(info.capabilities.tetherSessionTtlMs, 'the lifetime advertised is the one set').toBe(800);
    const { pid } = await c.call('process/start', start('sleeper', ['sleep', '30']));
    c.drop();
    await waitFor(() => !pidAlive(pid as number), 'sleeper killed');
    const again = await client(s);
    const resumed = await again.request('initialize', { clientName: 'x', resumeSessionId: sessionId });
    expect(resumed.error).toEqual({ code: -32600, message: `unknown session id ${sessionId}` });
  });
});
