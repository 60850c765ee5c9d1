import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { RpcPeer } from '../../support/rpc-peer';
import { waitFor } from '../../support/wait';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tetherServer(): Promise<StartedServer> {
  const s = await startServer('tether', 'ws');
  cleanups.push(() => s.stop());
  return s;
}

function outputBytes(c: RpcPeer, processId: string): number {
  return c
    .notifications()
    .filter((n) => n.method === 'process/output' && n.params.processId === processId)
    .reduce((sum, n) => sum + Buffer.from(n.params.chunk as string, 'base64').length, 0);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `value()` stops changing over `quietMs`. */
async function settled(value: () => number, quietMs: number): Promise<number> {
  let last = value();
  for (let i = 0; i < 40; i++) {
    await sleep(quietMs);
    const now = value();
    if (now === last) return now;
    last = now;
  }
  throw new Error('value never settled');
}

describe('flow control (tetherFlowControl)', () => {
  it('stops reading a producer at the window and resumes when process/ack arrives', async () => {
    const s = await tetherServer();
    const c = await RpcPeer.connectWs(s.url!, { headers: s.authHeaders() });
    cleanups.push(() => c.drop());
    await c.handshake();
    const window = 64 * 1024;
    await c.call('process/start', {
      processId: 'yes',
      argv: ['yes'],
      cwd: 'file:///tmp',
      env: {},
      tty: false,
      outputWindowBytes: window,
    });
    // The link may already be gone when the test ends (the server stops first): nothing to wait for then.
    cleanups.push(() => {
      c.call('process/terminate', { processId: 'yes' }).catch(() => undefined);
    });
    await waitFor(() => outputBytes(c, 'yes') >= window, 'first window of output');
    const paused = await settled(() => outputBytes(c, 'yes'), 300);
    expect(paused).toBeGreaterThanOrEqual(window);
    expect(paused).toBeLessThan(window + 256 * 1024);
    // Other calls still work while the producer is stalled.
    expect(await c.call('environment/status')).toEqual({ status: 'ready' });
    c.notify('process/ack', { processId: 'yes', consumedBytes: paused });
    await waitFor(() => outputBytes(c, 'yes') > paused, 'output after ack');
    const read = await c.call('process/read', { processId: 'yes', afterSeq: 0 });
    expect(read.exited).toBe(false);
  });
});

describe('backpressure towards a slow client', () => {
  it('pauses the producer while the connection is congested and loses nothing', async () => {
    const s = await tetherServer();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-bp-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const counter = path.join(dir, 'count');
    const socket = new WebSocket(s.url!, { headers: s.authHeaders() });
    cleanups.push(() => socket.terminate());
    await new Promise((resolve) => socket.once('open', resolve));
    let lastSeq = 0;
    let gaps = 0;
    let closed = false;
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { method?: string; params?: { seq: number } };
      if (message.method === 'process/output' || message.method === 'process/exited') {
        if (message.params!.seq !== lastSeq + 1) gaps++;
        lastSeq = message.params!.seq;
      }
      if (message.method === 'process/closed') closed = true;
    });
    socket.send(JSON.stringify({ id: 1, method: 'initialize', params: { clientName: 'bp' } }));
    socket.send(JSON.stringify({ method: 'initialized' }));
    const producer = `i=0; while [ $i -lt 1200 ]; do head -c 65536 /dev/zero; i=$((i+1)); echo $i > ${counter}; done`;
    socket.send(
      JSON.stringify({
        id: 2,
        method: 'process/start',
        params: {
          processId: 'p',
          argv: ['/bin/sh', '-c', producer],
          cwd: 'file:///tmp',
          env: {},
          tty: false,
        },
      }),
    );
    const count = (): number => Number(readFileSync(counter, 'utf8').trim() || 0);
    await waitFor(() => {
      try {
        return count() > 0;
      } catch {
        return false;
      }
    }, 'producer started');
    // Stop reading the socket: the server's queue fills and it must stop reading the producer.
    const raw = (socket as unknown as { _socket: Socket })._socket;
    raw.pause();
    const stalled = await settled(count, 500);
    expect(stalled * 65536).toBeLessThan(48 * 1024 * 1024);
    expect(stalled).toBeLessThan(1200);
    raw.resume();
    await waitFor(() => closed, 'producer finished', 45_000);
    expect(count()).toBe(1200);
    expect(gaps).toBe(0);
  }, 60_000);
});
