// Port forwarding through `tetherStreams` on a WebSocket link, with real sockets on 127.0.0.1:
// non-loopback targets refused, ::1-only listeners, local port numbers, 200 connections without
// leaks, backpressure with a paused reader, a WebSocket through the forward, a Vite dev server's
// page and HMR round trip through it, a link cut
// mid-transfer, `tether forward`, and no stream sent to a server without the extension (codex).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createServer as createViteServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { ClientError } from '../../../electron/client/client-error';
import { PortForward } from '../../../electron/client/forwarding/port-forward';
import type { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { StreamErrorKind } from '../../../shared/protocol';
import { startServer } from '../../support/exec-servers';
import { useForwardRig } from '../../support/forward-rig';
import { FaultProxy } from '../../support/fault-proxy';
import { exchange, MiB, outcome, portOf, sha, tcpServer } from '../../support/forward-peers';
import { openSocketCount } from '../../support/proc-fds';
import { tetherForward } from '../../support/tether-forward';
import { waitFor } from '../../support/wait';

const rig = useForwardRig();
const { newClient, forward } = rig;

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
    const echoForward = await forward(client, portOf(rig.echo));
    const pid = rig.server.child.pid!;
    const baseline = openSocketCount(pid);
    const payloads = Array.from({ length: 200 }, (_, i) => randomBytes(1000 + i * 37));
    const echoed = await Promise.all(payloads.map((payload) => exchange(echoForward.localPort, payload)));
    expect(echoed.every((bytes, i) => bytes.equals(payloads[i]!))).toBe(true);
    await waitFor(() => client.openStreamCount === 0 && echoForward.connectionCount === 0, 'streams closed');
    await waitFor(() => openSocketCount(pid) <= baseline, 'the server closed its sockets', 5_000);
    await echoForward.stop();
  });

  it('holds a paused reader back at the source with bounded memory, loses nothing, and keeps a terminal fast', async () => {
    const total = 32 * MiB;
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
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${rig.server.child.pid}/status`, 'utf8'))![1]) * 1024;
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
    // About 12 MiB here: one window plus the kernel's buffers; without credit all 32 MiB go.
    expect(plateau).toBeLessThan(24 * MiB);
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

  it('carries a Vite dev server: the page, its HMR WebSocket, and the update after an edit', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'tether-vite-'));
    const module = (value: number): string => `export const value = ${value};\nimport.meta.hot.accept();\n`;
    writeFileSync(path.join(root, 'index.html'), '<script type="module" src="/main.js"></script>');
    writeFileSync(path.join(root, 'main.js'), module(1));
    const vite = await createViteServer({
      root,
      configFile: false,
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0 },
    });
    try {
      await vite.listen();
      const viteForward = await forward(client, portOf(vite.httpServer as net.Server));
      const base = `http://127.0.0.1:${viteForward.localPort}`;
      const get = async (url: string): Promise<string> => {
        const response = await fetch(`${base}${url}`);
        expect(response.status, url).toBe(200);
        return response.text();
      };
      expect(await get('/')).toContain('/@vite/client');
      // The HMR socket's token is in the client script, as a browser would find it.
      const token = /const wsToken = "([^"]+)"/.exec(await get('/@vite/client'))?.[1];
      expect(token).toBeTruthy();
      expect(await get('/main.js')).toContain('value = 1');
      const hmr = new WebSocket(`ws://127.0.0.1:${viteForward.localPort}/?token=${token}`, 'vite-hmr');
      const messages: Array<{ type: string; updates?: Array<{ path: string; timestamp: number }> }> = [];
      hmr.on('message', (data) => messages.push(JSON.parse(String(data))));
      await waitFor(() => messages.some((m) => m.type === 'connected'), 'the HMR socket connected');
      writeFileSync(path.join(root, 'main.js'), module(2));
      const update = await waitFor(
        () => messages.find((m) => m.type === 'update'),
        'the HMR update after the edit',
      );
      const changed = update.updates![0]!;
      expect(changed.path).toBe('/main.js');
      expect(await get(`${changed.path}?t=${changed.timestamp}`)).toContain('value = 2');
      hmr.close();
      await viteForward.stop();
    } finally {
      await vite.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a forward through a link that drops', () => {
  let proxy: FaultProxy;
  let client: RemoteExecServerClient;
  beforeAll(async () => {
    proxy = await FaultProxy.forUrl(rig.server.url!);
    client = newClient('ws', proxy.url());
    await client.connect();
  });
  afterAll(async () => {
    await proxy.close();
  });

  it('resets open sockets at once on a cut, refuses new ones after a bounded wait, and works after the resume', async () => {
    const echoForward = await forward(client, portOf(rig.echo), { linkWaitMs: 700 });
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

describe('tether forward', () => {
  it('prints the local address first and forwards like ssh -L until SIGTERM', async () => {
    const forwarding = await tetherForward([
      '--server',
      rig.server.url!,
      '--token-file',
      rig.server.tokenFile!,
      `0:localhost:${portOf(rig.echo)}`,
    ]);
    expect(forwarding.address).toMatch(/^127\.0\.0\.1:\d+$/);
    const port = Number(forwarding.address.split(':')[1]);
    const payload = randomBytes(MiB);
    expect(sha(await exchange(port, payload))).toBe(sha(payload));
    expect(await forwarding.stop()).toBe(0);
    // The port is released with the process.
    expect((await outcome(port)).how).toBe('ECONNREFUSED');
  });

  it('refuses a server without tetherStreams (codex) before binding anything', async () => {
    const codex = await startServer('codex', 'ws');
    try {
      const client = newClient('ws', codex.url);
      await client.connect();
      const error = await client
        .pipeStream(new net.Socket(), { host: 'localhost', port: portOf(rig.echo) })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'unsupported' });
      // Nothing was sent that would make codex drop the connection.
      expect(await client.fs.canonicalize('/')).toBe('/');
      expect(client.state.kind).toBe('connected');
    } finally {
      await codex.stop();
    }
  });
});
