// Port forwarding through `tetherStreams`, over WebSocket and stdio, with real sockets on 127.0.0.1:
// byte-exact transfers both ways at once, half-close both ways, refusals, ::1-only listeners,
// many connections without leaks, a WebSocket through the forward, and a link cut mid-transfer.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { ClientError } from '../../../electron/client/client-error';
import { PortForward } from '../../../electron/client/forwarding/port-forward';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { StreamErrorKind } from '../../../shared/protocol';
import { startServer, TETHER_BIN, type StartedServer } from '../../support/exec-servers';
import { FaultProxy } from '../../support/fault-proxy';
import { openSocketCount } from '../../support/proc-fds';
import { waitFor } from '../../support/wait';

const MiB = 1024 * 1024;

/** A TCP server on `host` that runs `onSocket` for each connection (allowHalfOpen). */
async function tcpServer(host: string, onSocket: (socket: net.Socket) => void): Promise<net.Server> {
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    // A reset (the point of several tests) must not become an uncaught error here.
    socket.on('error', () => undefined);
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return server;
}

function portOf(server: net.Server | WebSocketServer): number {
  return (server.address() as net.AddressInfo).port;
}

/** Connects to 127.0.0.1:port, sends `payload` and ends; resolves with all it got back before the end. */
function exchange(port: number, payload: Buffer, host = '127.0.0.1'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port, allowHalfOpen: true });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      socket.end();
      resolve(Buffer.concat(chunks));
    });
    socket.on('error', reject);
    socket.on('connect', () => socket.end(payload));
  });
}

/** Resolves how a local connection ended: 'reset'/'closed' and after how many ms, bytes received. */
function outcome(port: number): Promise<{ how: string; ms: number; bytes: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect({ host: '127.0.0.1', port });
    let bytes = 0;
    let how = 'closed';
    socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
    socket.on('error', (error: NodeJS.ErrnoException) => (how = error.code ?? 'error'));
    socket.on('close', () => resolve({ how, ms: Date.now() - started, bytes }));
  });
}

const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

let server: StartedServer;
let echo: net.Server;
const forwards: PortForward[] = [];
const clients: RemoteExecServerClient[] = [];

beforeAll(async () => {
  server = await startServer('tether', 'ws');
  // Echoes everything, and ends its side once the client ended its own.
  echo = await tcpServer('127.0.0.1', (socket) => socket.pipe(socket));
});

afterAll(async () => {
  for (const forward of forwards) await forward.stop();
  for (const client of clients) await client.close();
  echo.close();
  await server.stop();
});

function newClient(transport: 'ws' | 'stdio', url?: string): RemoteExecServerClient {
  const client = new RemoteExecServerClient({
    transport:
      transport === 'ws'
        ? server.transportSpec(url)
        : { kind: 'stdio', command: [process.execPath, TETHER_BIN, 'exec-server', '--listen', 'stdio'] },
  });
  clients.push(client);
  return client;
}

async function forward(
  client: RemoteExecServerClient,
  port: number,
  options: { host?: string; linkWaitMs?: number } = {},
): Promise<PortForward> {
  const started = await PortForward.start(client, {
    target: { host: options.host ?? 'localhost', port },
    localPort: 0,
    ...(options.linkWaitMs !== undefined ? { linkWaitMs: options.linkWaitMs } : {}),
  });
  forwards.push(started);
  return started;
}

describe.each(['ws', 'stdio'] as const)('a forward over %s', (transport) => {
  let client: RemoteExecServerClient;
  let echoForward: PortForward;
  beforeAll(async () => {
    client = newClient(transport);
    await client.connect();
    echoForward = await forward(client, portOf(echo));
  });

  it('carries 0 B, 1 B, 64 KiB ± 1 and 16 MiB exactly, both directions at once', async () => {
    const sizes = [0, 1, 64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 16 * MiB];
    const payloads = sizes.map((size) => randomBytes(size));
    // All at once: several streams share the link, each echoing while it is still being sent.
    const echoed = await Promise.all(payloads.map((payload) => exchange(echoForward.localPort, payload)));
    for (const [i, payload] of payloads.entries()) {
      expect(echoed[i]!.length, `size ${sizes[i]}`).toBe(payload.length);
      expect(sha(echoed[i]!), `size ${sizes[i]}`).toBe(sha(payload));
    }
  });

  it('half-closes both ways: the host ends first and still reads what follows', async () => {
    let received = '';
    const greeter = await tcpServer('127.0.0.1', (socket) => {
      socket.end('hello from the host');
      socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    });
    const received$ = new Promise<void>((resolve) =>
      greeter.once('connection', (socket) => socket.on('end', () => resolve())),
    );
    const greeterForward = await forward(client, portOf(greeter));
    const local = net.connect({ host: '127.0.0.1', port: greeterForward.localPort, allowHalfOpen: true });
    let got = '';
    local.on('data', (chunk: Buffer) => (got += chunk.toString()));
    await new Promise<void>((resolve) => local.once('end', () => resolve()));
    expect(got).toBe('hello from the host');
    // Our side is still open for writing after the host's end.
    local.end('and a reply after your end');
    await received$;
    expect(received).toBe('and a reply after your end');
    await greeterForward.stop();
    greeter.close();
  });

  it('refuses a local connection at once when nothing listens on the host port', async () => {
    const closed = await tcpServer('127.0.0.1', () => undefined);
    const freePort = portOf(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refusing = await forward(client, freePort);
    const result = await outcome(refusing.localPort);
    expect(result.bytes).toBe(0);
    expect(result.how).toBe('ECONNRESET');
    expect(result.ms).toBeLessThan(1_000);
    await expect(
      client.pipeStream(new net.Socket(), { host: 'localhost', port: freePort }),
    ).rejects.toMatchObject({ rpc: { data: { kind: StreamErrorKind.refused } } });
  });
});

describe('forwarding over ws', () => {
  let client: RemoteExecServerClient;
  beforeAll(async () => {
    client = newClient('ws');
    await client.connect();
  });

  it('refuses targets that are not loopback, and never resolves names', async () => {
    for (const host of ['10.0.0.1', '192.168.1.1', '0.0.0.0', '::', 'example.com', '127.0.0.1.nip.io']) {
      const error = await client.pipeStream(new net.Socket(), { host, port: 80 }).catch((e: unknown) => e);
      expect(error, host).toBeInstanceOf(ClientError);
      expect((error as ClientError).rpc?.data, host).toEqual({ kind: StreamErrorKind.notLoopback });
    }
  });

  it('reaches a server that listens on ::1 only through localhost', async () => {
    const v6 = await tcpServer('::1', (socket) => socket.pipe(socket));
    const v6Forward = await forward(client, portOf(v6));
    expect(v6Forward.addresses).toEqual([`127.0.0.1:${v6Forward.localPort}`, `[::1]:${v6Forward.localPort}`]);
    expect((await exchange(v6Forward.localPort, Buffer.from('over ::1'))).toString()).toBe('over ::1');
    // And the forward listens on ::1 too.
    expect((await exchange(v6Forward.localPort, Buffer.from('from ::1'), '::1')).toString()).toBe('from ::1');
    await v6Forward.stop();
    v6.close();
  });

  it('takes the same local port number when free, remaps when not, and releases it on stop', async () => {
    // On 127.0.0.2, so that this machine's 127.0.0.1 and ::1 still have the number free.
    const target = await tcpServer('127.0.0.2', (socket) => socket.pipe(socket));
    const port = portOf(target);
    const same = await PortForward.start(client, { target: { host: '127.0.0.2', port } });
    expect(same.localPort).toBe(port);
    expect(same.remapped).toBe(false);
    expect((await exchange(port, Buffer.from('same number'))).toString()).toBe('same number');
    // Taken now (by that forward): a second forward of the same port shows a remap.
    const remapped = await PortForward.start(client, { target: { host: '127.0.0.2', port } });
    expect(remapped.remapped).toBe(true);
    expect(remapped.localPort).not.toBe(port);
    await remapped.stop();
    await same.stop();
    // Released at once: the number can be bound again right away.
    const probe = net.createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(port, '127.0.0.1', resolve);
    });
    probe.close();
    target.close();
  });

  it('carries 200 concurrent connections and leaks nothing afterwards', async () => {
    const echoForward = await forward(client, portOf(echo));
    const pid = server.child.pid!;
    const baseline = openSocketCount(pid);
    const payloads = Array.from({ length: 200 }, (_, i) => randomBytes(1000 + i * 37));
    const echoed = await Promise.all(payloads.map((payload) => exchange(echoForward.localPort, payload)));
    expect(echoed.every((bytes, i) => bytes.equals(payloads[i]!))).toBe(true);
    await waitFor(() => client.openStreamCount === 0 && echoForward.connectionCount === 0, 'streams closed');
    await waitFor(() => openSocketCount(pid) <= baseline, 'the server closed its sockets', 5_000);
    await echoForward.stop();
  });

  it('holds a paused reader back at the source with bounded memory, loses nothing, and keeps a terminal fast', async () => {
    const total = 48 * MiB;
    const source = randomBytes(total);
    let sent = 0;
    const producer = await tcpServer('127.0.0.1', (socket) => {
      const chunk = 64 * 1024;
      const pump = (): void => {
        while (sent < total) {
          const piece = source.subarray(sent, sent + chunk);
          sent += piece.length;
          if (!socket.write(piece)) {
            socket.once('drain', pump);
            return;
          }
        }
        socket.end();
      };
      pump();
    });
    const producerForward = await forward(client, portOf(producer));
    const rss = (): number =>
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))![1]) * 1024;
    const rssBefore = rss();
    const local = net.connect({ host: '127.0.0.1', port: producerForward.localPort });
    const chunks: Buffer[] = [];
    let received = 0;
    local.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
    });
    await waitFor(() => received >= MiB, 'the first MiB');
    local.pause();
    // Paused: the source is held back once the windows and socket buffers on the way are full.
    let plateau = -1;
    await waitFor(
      async () => {
        const before = sent;
        await new Promise((resolve) => setTimeout(resolve, 300));
        if (sent !== before) return false;
        plateau = sent;
        return true;
      },
      'the source held back',
      10_000,
    );
    // About 11 MiB here: one window plus the kernel's buffers; without credit all 48 MiB go.
    expect(plateau).toBeLessThan(30 * MiB);
    expect(rss() - rssBefore).toBeLessThan(30 * MiB);

    // A terminal on the same environment still echoes at once.
    const shell = await client.startProcess({ argv: ['/bin/cat'], cwd: '/', tty: true });
    let echoed = '';
    shell.subscribe((event) => {
      if (event.kind === 'output') echoed += Buffer.from(event.data).toString();
    });
    const typedAt = Date.now();
    await shell.write('k');
    await waitFor(() => echoed.includes('k'), 'the keystroke echoed');
    expect(Date.now() - typedAt).toBeLessThan(1_000);
    await shell.terminate();

    local.resume();
    await new Promise<void>((resolve) => local.once('end', () => resolve()));
    expect(received).toBe(total);
    expect(sha(Buffer.concat(chunks))).toBe(sha(source));
    await producerForward.stop();
    producer.close();
  });

  it('carries a WebSocket with large messages through the forward', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 64 * MiB });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    wss.on('connection', (socket) => socket.on('message', (data, binary) => socket.send(data, { binary })));
    const wsForward = await forward(client, portOf(wss));
    const socket = new WebSocket(`ws://127.0.0.1:${wsForward.localPort}/hmr`, { maxPayload: 64 * MiB });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const messages = [Buffer.from('{"type":"update"}'), randomBytes(8 * MiB), randomBytes(70_000)];
    const replies: Buffer[] = [];
    socket.on('message', (data) => replies.push(data as Buffer));
    for (const message of messages) socket.send(message);
    await waitFor(() => replies.length === messages.length, 'every message echoed', 15_000);
    expect(replies.map(sha)).toEqual(messages.map(sha));
    socket.close();
    await wsForward.stop();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });
});

describe('a forward through a link that drops', () => {
  let proxy: FaultProxy;
  let client: RemoteExecServerClient;
  beforeAll(async () => {
    proxy = await FaultProxy.forUrl(server.url!);
    client = newClient('ws', proxy.url());
    await client.connect();
  });
  afterAll(async () => {
    await proxy.close();
  });

  it('resets open sockets at once on a cut, refuses new ones after a bounded wait, and works after the resume', async () => {
    const echoForward = await forward(client, portOf(echo), { linkWaitMs: 700 });
    // A transfer in flight: a large payload the echo server is still sending back.
    const local = net.connect({ host: '127.0.0.1', port: echoForward.localPort, allowHalfOpen: true });
    let received = 0;
    local.on('data', (chunk: Buffer) => (received += chunk.length));
    const ended = new Promise<{ code: string | undefined; at: number }>((resolve) => {
      let code: string | undefined;
      local.on('error', (error: NodeJS.ErrnoException) => (code = error.code));
      local.on('close', () => resolve({ code, at: Date.now() }));
    });
    local.write(randomBytes(64 * MiB));
    await waitFor(() => received > 1 * MiB, 'the transfer under way');
    proxy.refuseNew(true);
    const cutAt = Date.now();
    proxy.cutAll();
    const end = await ended;
    expect(end.code).toBe('ECONNRESET');
    expect(end.at - cutAt).toBeLessThan(1_000);
    expect(received).toBeLessThan(64 * MiB);

    // The listener stays bound; a connection during the outage waits for the link, then is refused.
    const during = await outcome(echoForward.localPort);
    expect(during.how).toBe('ECONNRESET');
    expect(during.ms).toBeGreaterThanOrEqual(600);
    expect(during.ms).toBeLessThan(3_000);

    proxy.refuseNew(false);
    client.reconnectNow();
    await waitFor(() => client.state.kind === 'connected', 'resumed', 10_000);
    expect((await exchange(echoForward.localPort, Buffer.from('after the resume'))).toString()).toBe(
      'after the resume',
    );
  });
});
