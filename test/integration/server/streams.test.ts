// `tetherStreams` on the wire against a real Tether exec-server (JSON text, base64 bytes): a fault
// on one stream (too many bytes for its window, a taken id) resets or refuses that stream only,
// and the connection keeps serving; streams before the handshake are a violation, as codex has it.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamErrorKind, STREAM_WINDOW_BYTES } from '../../../shared/protocol';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { RpcPeer } from '../../support/rpc-peer';

let server: StartedServer;
let sink: net.Server;
const received: Buffer[] = [];
const peers: RpcPeer[] = [];

beforeAll(async () => {
  server = await startServer('tether', 'ws');
  sink = net.createServer({ allowHalfOpen: true }, (socket) => {
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => received.push(chunk));
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  for (const peer of peers) await peer.close();
  sink.close();
  await server.stop();
});

async function peer(handshake = true): Promise<RpcPeer> {
  const c = await RpcPeer.connectWs(server.url!, { headers: server.authHeaders() });
  peers.push(c);
  if (handshake) await c.handshake();
  return c;
}

const sinkPort = (): number => (sink.address() as net.AddressInfo).port;

describe('tetherStreams', () => {
  it('is advertised, opens a stream to a loopback port and carries base64 data', async () => {
    const c = await peer();
    const info = await c.call<{ capabilities: Record<string, unknown> }>('environment/info');
    expect(info.capabilities.tetherStreams).toBe(true);
    const opened = await c.call<{ windowBytes: number; address: string }>('stream/open', {
      streamId: 's1',
      host: 'localhost',
      port: sinkPort(),
      windowBytes: 65536,
    });
    expect(opened).toEqual({ windowBytes: STREAM_WINDOW_BYTES, address: '127.0.0.1' });
    c.notify('stream/data', { streamId: 's1', data: Buffer.from('hello sink').toString('base64') });
    await expect.poll(() => Buffer.concat(received).toString(), { timeout: 5_000 }).toContain('hello sink');
  });

  it('resets only the stream that overruns its window; the connection keeps serving', async () => {
    const c = await peer();
    await c.call('stream/open', { streamId: 'big', host: '127.0.0.1', port: sinkPort(), windowBytes: 1024 });
    const tooMuch = Buffer.alloc(STREAM_WINDOW_BYTES + 1).toString('base64');
    c.notify('stream/data', { streamId: 'big', data: tooMuch });
    const reset = await c.notification('stream/reset', (p) => p.streamId === 'big');
    expect(String(reset.params.message)).toMatch(/window/);
    // The same connection answers, and opens another stream.
    await c.call('stream/open', { streamId: 'next', host: '127.0.0.1', port: sinkPort(), windowBytes: 1024 });
    expect(await c.call('environment/status')).toEqual({ status: 'ready' });
  });

  it('refuses a taken stream id, a non-loopback target and a closed port without dropping the link', async () => {
    const c = await peer();
    const open = (streamId: string, host: string, port: number): Promise<unknown> =>
      c.call('stream/open', { streamId, host, port, windowBytes: 1024 }).catch((error: unknown) => error);
    await c.call('stream/open', { streamId: 'x', host: 'localhost', port: sinkPort(), windowBytes: 1024 });
    expect(await open('x', 'localhost', sinkPort())).toMatchObject({ code: -32600 });
    expect(await open('y', '169.254.169.254', 80)).toMatchObject({
      code: -32600,
      error: { data: { kind: StreamErrorKind.notLoopback } },
    });
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await open('z', 'localhost', freePort)).toMatchObject({
      code: -32603,
      error: { data: { kind: StreamErrorKind.refused } },
    });
    expect(await c.call('environment/status')).toEqual({ status: 'ready' });
  });

  it('treats stream notifications before the handshake as a violation', async () => {
    const c = await peer(false);
    c.notify('stream/data', { streamId: 's', data: '' });
    await c.waitForClose(5_000);
  });
});
