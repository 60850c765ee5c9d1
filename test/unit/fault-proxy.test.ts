// The fault-injection proxy against a tiny echo server on 127.0.0.1: clean forwarding, cuts, stalls,
// latency, throttling, refusal, restore and cleanup.
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FaultProxy, PIPE_HIGH_WATER_BYTES } from '../support/fault-proxy';
import { waitFor } from '../support/wait';

interface EchoServer {
  port: number;
  sockets: Set<net.Socket>;
  close: () => Promise<void>;
}

async function startEcho(): Promise<EchoServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A client socket that records everything it receives and how it ended. */
interface Probe {
  socket: net.Socket;
  received: () => Buffer;
  ended: Promise<'end' | 'error'>;
  closed: Promise<void>;
}

async function connect(port: number): Promise<Probe> {
  const socket = net.connect({ host: '127.0.0.1', port });
  const chunks: Buffer[] = [];
  socket.on('data', (d: Buffer) => chunks.push(d));
  const ended = new Promise<'end' | 'error'>((resolve) => {
    socket.once('end', () => resolve('end'));
    socket.once('error', () => resolve('error'));
    socket.once('close', () => resolve('end'));
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => Buffer.concat(chunks), ended, closed };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('FaultProxy', () => {
  let echo: EchoServer;
  let proxy: FaultProxy;
  const probes: Probe[] = [];

  beforeEach(async () => {
    echo = await startEcho();
    proxy = await FaultProxy.start({ target: { host: '127.0.0.1', port: echo.port } });
  });

  afterEach(async () => {
    for (const probe of probes.splice(0)) probe.socket.destroy();
    await proxy.close();
    await echo.close();
  });

  async function open(): Promise<Probe> {
    const probe = await connect(proxy.port);
    probes.push(probe);
    return probe;
  }

  it('forwards bytes both ways unchanged and counts them', async () => {
    const payload = randomBytes(3 * 1024 * 1024);
    const probe = await open();
    probe.socket.write(payload);
    await waitFor(() => probe.received().length >= payload.length, 'the echo');
    expect(sha(probe.received())).toBe(sha(payload));
    expect(proxy.url()).toBe(`ws://127.0.0.1:${proxy.port}`);
    expect(proxy.url('http')).toBe(`http://127.0.0.1:${proxy.port}`);
    const stats = proxy.stats();
    expect(stats).toMatchObject({ connections: 1, open: 1, refused: 0, cut: 0, heldBytes: 0 });
    expect(stats.bytesUpstream).toBe(payload.length);
    expect(stats.bytesDownstream).toBe(payload.length);
  });

  it('passes a half-close through after the data', async () => {
    const probe = await open();
    probe.socket.end('last words');
    expect(await probe.ended).toBe('end');
    expect(probe.received().toString()).toBe('last words');
    await waitFor(() => proxy.stats().open === 0, 'the connection to be forgotten');
  });

  it('cutAll resets every live connection on both sides and keeps accepting', async () => {
    const a = await open();
    const b = await open();
    a.socket.write('x');
    b.socket.write('y');
    await waitFor(() => a.received().length === 1 && b.received().length === 1, 'echoes');
    expect(echo.sockets.size).toBe(2);

    expect(proxy.cutAll()).toBe(2);
    await Promise.all([a.closed, b.closed]);
    expect(await a.ended).toBe('error');
    await waitFor(() => echo.sockets.size === 0, 'the server side to be closed');
    expect(proxy.stats()).toMatchObject({ open: 0, cut: 2, connections: 2 });

    const c = await open();
    c.socket.write('again');
    await waitFor(() => c.received().toString() === 'again', 'an echo after the cut');
  });

  it('stall holds existing and new connections silent, and restore lets the held bytes through in order', async () => {
    const existing = await open();
    existing.socket.write('before;');
    await waitFor(() => existing.received().toString() === 'before;', 'the first echo');

    proxy.stall();
    existing.socket.write('during-1;');
    existing.socket.write('during-2;');
    const fresh = await open();
    fresh.socket.write('fresh;');
    await sleep(300);
    expect(existing.received().toString()).toBe('before;');
    expect(fresh.received().length).toBe(0);
    expect(existing.socket.destroyed).toBe(false);
    expect(fresh.socket.destroyed).toBe(false);

    proxy.restore();
    await waitFor(() => existing.received().toString() === 'before;during-1;during-2;', 'held echo');
    await waitFor(() => fresh.received().toString() === 'fresh;', 'held echo on the new connection');
  });

  it("stall('existing') black-holes the open connections while new ones pass", async () => {
    const old = await open();
    proxy.stall('existing');
    old.socket.write('stranded;');
    const fresh = await open();
    fresh.socket.write('fresh;');
    await waitFor(() => fresh.received().toString() === 'fresh;', 'the echo on the new connection');
    expect(old.received().length).toBe(0);
    expect(old.socket.destroyed).toBe(false);

    proxy.restore();
    await waitFor(() => old.received().toString() === 'stranded;', 'the held echo after restore');
  });

  it('a stall stops reading at the high-water mark instead of buffering without bound', async () => {
    const probe = await open();
    proxy.stall();
    const payload = randomBytes(8 * 1024 * 1024);
    probe.socket.write(payload);
    await waitFor(() => proxy.stats().heldBytes >= PIPE_HIGH_WATER_BYTES, 'the pipe to fill up');
    await sleep(300);
    expect(probe.received().length).toBe(0);
    // One socket read (at most 64 KiB) can land after the mark is crossed, then reading pauses.
    expect(proxy.stats().heldBytes).toBeLessThanOrEqual(PIPE_HIGH_WATER_BYTES + 64 * 1024);
    proxy.restore();
    await waitFor(() => probe.received().length >= payload.length, 'the whole payload', 20_000);
    expect(sha(probe.received())).toBe(sha(payload));
  });

  it('a proxy built to hold more reads on to its own high-water mark before it stops', async () => {
    const holdBytes = 3 * PIPE_HIGH_WATER_BYTES;
    const roomy = await FaultProxy.start({
      target: { host: '127.0.0.1', port: echo.port },
      pipeHighWaterBytes: holdBytes,
    });
    try {
      const probe = await connect(roomy.port);
      probes.push(probe);
      roomy.stall();
      const payload = randomBytes(8 * 1024 * 1024);
      probe.socket.write(payload);
      await waitFor(() => roomy.stats().heldBytes >= holdBytes, 'the roomier pipe to fill up');
      expect(roomy.stats().heldBytes).toBeLessThanOrEqual(holdBytes + 64 * 1024);
      roomy.restore();
      await waitFor(() => probe.received().length >= payload.length, 'the whole payload', 20_000);
      expect(sha(probe.received())).toBe(sha(payload));
    } finally {
      await roomy.close();
    }
  });

  it('latency delays each direction and keeps order', async () => {
    const probe = await open();
    proxy.setLatency(150);
    const started = performance.now();
    for (let i = 0; i < 50; i++) probe.socket.write(`${i},`);
    const expected = Array.from({ length: 50 }, (_, i) => `${i},`).join('');
    await waitFor(() => probe.received().toString() === expected, 'the delayed echo');
    // Each byte crosses the proxy twice, so it cannot come back sooner than two latencies.
    expect(performance.now() - started).toBeGreaterThanOrEqual(2 * 150 - 5);

    proxy.setLatency(200, 'upstream');
    proxy.setLatency(0, 'downstream');
    const again = performance.now();
    probe.socket.write('z');
    await waitFor(() => probe.received().toString().endsWith('z'), 'the one-way delayed echo');
    expect(performance.now() - again).toBeGreaterThanOrEqual(200 - 5);
  });

  it('throttle paces the bytes without losing any', async () => {
    const probe = await open();
    proxy.throttle(64 * 1024, 'downstream');
    const payload = randomBytes(48 * 1024);
    const started = performance.now();
    probe.socket.write(payload);
    await waitFor(() => probe.received().length >= payload.length, 'the throttled echo');
    expect(sha(probe.received())).toBe(sha(payload));
    // 48 KiB at 64 KiB/s; the first slice may leave at once.
    expect(performance.now() - started).toBeGreaterThanOrEqual(700);
    expect(() => proxy.throttle(0)).toThrow(RangeError);
  });

  it('refuseNew turns new connections away and leaves existing ones alone', async () => {
    const existing = await open();
    proxy.refuseNew(true);
    const refused = net.connect({ host: '127.0.0.1', port: proxy.port });
    const outcome = await new Promise<string>((resolve) => {
      refused.on('data', () => resolve('data'));
      refused.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      refused.once('close', () => resolve('close'));
    });
    refused.destroy();
    expect(['ECONNRESET', 'close']).toContain(outcome);
    expect(proxy.stats().refused).toBe(1);

    existing.socket.write('still here');
    await waitFor(() => existing.received().toString() === 'still here', 'the existing echo');

    proxy.refuseNew(false);
    const later = await open();
    later.socket.write('ok');
    await waitFor(() => later.received().toString() === 'ok', 'an echo after refusal ends');
  });

  it('restore clears latency and throttle', async () => {
    const probe = await open();
    proxy.setLatency(60_000);
    proxy.throttle(1);
    probe.socket.write('held');
    await sleep(100);
    expect(probe.received().length).toBe(0);
    proxy.restore();
    await waitFor(() => probe.received().toString() === 'held', 'the echo after restore');
  });

  it('closes the client when the target cannot be reached', async () => {
    await echo.close();
    const probe = await open();
    await probe.closed;
    await waitFor(() => proxy.stats().open === 0, 'the connection to be forgotten');
  });

  it('close resets live connections, stops listening and is idempotent', async () => {
    const probe = await open();
    proxy.setLatency(60_000);
    probe.socket.write('pending');
    await proxy.close();
    await probe.closed;
    await proxy.close();
    const outcome = await new Promise<string>((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port: proxy.port });
      s.once('connect', () => {
        s.destroy();
        resolve('connected');
      });
      s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
    });
    expect(outcome).toBe('ECONNREFUSED');
  });
});
