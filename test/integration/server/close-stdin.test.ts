// `process/closeStdin` (capability tetherCloseStdin) against a real Tether exec-server: it ends a
// pipe after the writes before it, sends the terminal's EOF under a tty, and does so once however
// often it is repeated (a client retries it after a reconnect); later writes get `stdinClosed`.
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { RpcPeer } from '../../support/rpc-peer';
import { waitFor } from '../../support/wait';

const servers: StartedServer[] = [];
const clients: RpcPeer[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.drop();
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function session(): Promise<RpcPeer> {
  const server = await startServer('tether', 'ws');
  servers.push(server);
  const c = await RpcPeer.connectWs(server.url!, { headers: server.authHeaders() });
  clients.push(c);
  const init = await c.call('initialize', { clientName: 'close-stdin-test' });
  expect((init.environmentInfo as { capabilities: Record<string, unknown> }).capabilities).toMatchObject({
    tetherCloseStdin: true,
  });
  c.notify('initialized', {});
  return c;
}

const start = (processId: string, argv: string[], extra: Record<string, unknown> = {}) => ({
  processId,
  argv,
  cwd: 'file:///tmp',
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  tty: false,
  pipeStdin: true,
  ...extra,
});
const b64 = (text: string): string => Buffer.from(text).toString('base64');
/** How long a test watches for output that must not come (a second EOF). */
const QUIET_MS = 800;

describe('process/closeStdin', () => {
  it('ends a pipe after the writes before it; later writes get stdinClosed', async () => {
    const c = await session();
    await c.call('process/start', start('sort', ['sort']));
    await c.call('process/write', { processId: 'sort', chunk: b64('pear\napple\n'), writeId: '1' });
    expect(await c.call('process/closeStdin', { processId: 'sort' })).toEqual({ status: 'accepted' });
    await waitFor(() => c.hasClosed('sort'), 'sort to finish');
    expect(c.outputOf('sort')).toBe('apple\npear\n');
    expect(await c.call('process/write', { processId: 'sort', chunk: b64('x'), writeId: '2' })).toEqual({
      status: 'stdinClosed',
    });
    // A write accepted before the close and resent after it is still the same accepted write; its id
    // with other bytes is a new write, too late.
    const resend = { processId: 'sort', chunk: b64('pear\napple\n'), writeId: '1' };
    expect(await c.call('process/write', resend)).toEqual({ status: 'accepted' });
    expect(await c.call('process/write', { ...resend, chunk: b64('x') })).toEqual({ status: 'stdinClosed' });
    expect(await c.call('process/closeStdin', { processId: 'sort' })).toEqual({ status: 'accepted' });
  });

  it('answers like process/write for a process without stdin and for unknown ids', async () => {
    const c = await session();
    await c.call('process/start', start('none', ['sleep', '30'], { pipeStdin: false }));
    expect(await c.call('process/closeStdin', { processId: 'none' })).toEqual({ status: 'stdinClosed' });
    expect(await c.call('process/closeStdin', { processId: 'nope' })).toEqual({ status: 'unknownProcess' });
    await c.call('process/terminate', { processId: 'none' });
  });

  it('sends the terminal EOF under a tty exactly once, however often it is asked', async () => {
    const c = await session();
    const script = 'cat >/dev/null; echo first-end; cat >/dev/null; echo second-end';
    await c.call('process/start', start('tty', ['/bin/sh', '-c', script], { tty: true }));
    await c.call('process/write', { processId: 'tty', chunk: b64('typed\n'), writeId: '1' });
    await c.call('process/closeStdin', { processId: 'tty' });
    await c.call('process/closeStdin', { processId: 'tty' });
    await waitFor(() => c.outputOf('tty').includes('first-end'), 'the first cat to end');
    const seen = await c.call('process/read', { processId: 'tty', afterSeq: 0 });
    const later = await c.call('process/read', {
      processId: 'tty',
      afterSeq: Number(seen.nextSeq) - 1,
      waitMs: QUIET_MS,
    });
    const laterText = (later.chunks as Array<{ chunk: string }>)
      .map((chunk) => Buffer.from(chunk.chunk, 'base64').toString())
      .join('');
    expect(c.outputOf('tty') + laterText).not.toContain('second-end');
    await c.call('process/terminate', { processId: 'tty' });
  });
});
