// Port forwards in the AppService against Tether's real ws server: forwards.add binds a loopback
// port that reaches the host's port, the forward is kept in the config and bound again by a new
// AppService on the same data dir, a refused port shows as nothing listening, and stopping or
// removing the environment releases the port at once. Against a codex server the forward carries
// plain HTTP (http/request) and says so, and the host's listening ports are listed all the same.
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { exchange, outcome, portOf, tcpServer } from '../../support/forward-peers';
import { createHarness, waitFor, type Harness } from './app-harness';

let server: StartedServer;
let echo: net.Server;
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  server = await startServer('tether', 'ws');
  echo = await tcpServer('127.0.0.1', (socket) => socket.pipe(socket));
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  echo.close();
  await server.stop();
});

async function harness(dataDir?: string): Promise<Harness> {
  const h = await createHarness({ autoConnect: false, ...(dataDir ? { dataDir } : {}) });
  cleanups.push(() => h.close());
  return h;
}

describe('forwards in the app', () => {
  it('forwards a port, keeps it across a restart, and releases it when stopped or removed', async () => {
    const h = await harness();
    const envId = (
      await h.invoke('environments.add', {
        name: 'Remote',
        color: '#336699',
        settings: { kind: 'ws', url: server.url! },
        token: server.token,
      })
    ).id;
    const added = await h.invoke('forwards.add', { envId, port: portOf(echo), localPort: 0, label: 'echo' });
    expect(added.addresses[0]).toBe(`127.0.0.1:${added.boundPort}`);
    expect((await exchange(added.boundPort!, Buffer.from('through the app'))).toString()).toBe(
      'through the app',
    );
    await waitFor(
      async () => (await h.invoke('forwards.list', { envId }))[0]?.state === 'forwarding',
      'forwarding',
    );
    expect(h.eventsNamed('forwards.changed').at(-1)?.forwards[0]?.label).toBe('echo');

    // A port nobody listens on: refused here at once, and shown as such.
    const closed = await tcpServer('127.0.0.1', () => undefined);
    const freePort = portOf(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const idle = await h.invoke('forwards.add', { envId, port: freePort, localPort: 0 });
    expect((await outcome(idle.boundPort!)).how).toBe('ECONNRESET');
    await waitFor(
      async () =>
        (await h.invoke('forwards.list', { envId })).find((f) => f.id === idle.id)?.state ===
        'nothingListening',
      'nothing listening',
    );
    await h.invoke('forwards.stop', { envId, id: idle.id });
    expect((await outcome(idle.boundPort!)).how).toBe('ECONNREFUSED');

    // Restart: the remaining forward is bound again (on a port of its own choosing: it asked for 0).
    await h.close({ keepDataDir: true });
    const next = await harness(h.dataDir);
    const [restored] = await next.invoke('forwards.list', { envId });
    expect(restored).toMatchObject({ id: added.id, port: portOf(echo), label: 'echo' });
    expect((await exchange(restored!.boundPort!, Buffer.from('after a restart'))).toString()).toBe(
      'after a restart',
    );
    await next.invoke('environments.remove', { id: envId, terminateProcesses: false });
    expect((await outcome(restored!.boundPort!)).how).toBe('ECONNREFUSED');
  });
});

describe('forwards to a codex server', () => {
  it('forwards plain HTTP, shows the forward as HTTP only, and lists the host’s listening ports', async () => {
    const codex = await startServer('codex', 'ws');
    cleanups.push(() => codex.stop());
    const web = http.createServer((_req, res) => res.end('served through http/request'));
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => web.close(() => resolve())));
    const h = await harness();
    const envId = (
      await h.invoke('environments.add', {
        name: 'Codex',
        color: '#663399',
        settings: { kind: 'ws', url: codex.url! },
      })
    ).id;
    const added = await h.invoke('forwards.add', { envId, port: portOf(web), localPort: 0 });
    const body = await new Promise<string>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: added.boundPort!, path: '/', agent: false }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(text));
        })
        .on('error', reject);
    });
    expect(body).toBe('served through http/request');
    await waitFor(
      async () => (await h.invoke('forwards.list', { envId }))[0]?.httpOnly === true,
      'shown as HTTP only',
    );
    expect((await h.invoke('forwards.list', { envId }))[0]?.state).toBe('forwarding');
    expect((await h.invoke('forwards.listening', { envId })).map((l) => l.port)).toContain(portOf(web));
  });
});
