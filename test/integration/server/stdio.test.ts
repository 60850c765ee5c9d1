import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { pidAlive } from '../../support/pids';
import { RpcPeer } from '../../support/rpc-peer';
import { waitFor } from '../../support/wait';

const servers: StartedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function stdioServer(): Promise<{ server: StartedServer; client: RpcPeer }> {
  const server = await startServer('tether', 'stdio');
  servers.push(server);
  return { server, client: RpcPeer.overStdio(server.child) };
}

describe('exec-server over stdio', () => {
  it('speaks newline-delimited JSON, tolerates CRLF and blank lines, and reports bad lines', async () => {
    const { client } = await stdioServer();
    client.sendText('');
    client.sendText('{"id":1,"method":"initialize","params":{"clientName":"x"}}\r');
    client.sendText('{"method":"initialized"}');
    client.sendText('{oops');
    await waitFor(() => client.responses().some((r) => r.id === -1), 'parse error');
    const parseError = client.responses().find((r) => r.id === -1)!;
    expect(parseError.error?.code).toBe(-32600);
    expect(parseError.error?.message).toMatch(/^failed to parse JSON-RPC message from exec-server stdio: /);
    await client.call('process/start', {
      processId: 'p',
      argv: ['/bin/sh', '-c', 'echo out'],
      cwd: 'file:///tmp',
      env: {},
      tty: false,
    });
    await waitFor(() => client.hasClosed('p'), 'p closed');
    expect(client.outputOf('p')).toBe('out\n');
  });

  it('exits 0 on stdin EOF and kills its processes', async () => {
    const { server, client } = await stdioServer();
    await client.handshake();
    const { pid } = await client.call('process/start', {
      processId: 'sleeper',
      argv: ['sleep', '30'],
      cwd: 'file:///tmp',
      env: {},
      tty: false,
    });
    const exit = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
    client.drop();
    expect(await exit).toBe(0);
    await waitFor(() => !pidAlive(pid as number), 'sleeper killed');
  });

  it('exits 0 on SIGTERM', async () => {
    const { server, client } = await stdioServer();
    await client.handshake();
    const exit = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });
});
