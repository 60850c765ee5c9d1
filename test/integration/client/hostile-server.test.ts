// The client against small hostile servers written here (a real ws server, a real stdio command)
// that speak just enough JSON-RPC: an absurd `nextSeq` must cost the client only what it holds,
// and messages past the inbound cap close the link with a clear error instead of growing memory.
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ConnectionState, ProcessEvent } from '../../../electron/client/api';
import { MAX_INBOUND_MESSAGE_BYTES } from '../../../electron/client/constants';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { waitFor } from './helpers';

type Answer = (method: string, params: Record<string, unknown>, ws: WebSocket) => unknown;

interface HostileServer {
  url: string;
  /** Connections accepted so far. */
  connections: number;
}

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A ws server on 127.0.0.1 answering requests with `answer` (undefined: no answer). */
async function hostileServer(answer: Answer): Promise<HostileServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  const server: HostileServer = {
    url: `ws://127.0.0.1:${(wss.address() as { port: number }).port}`,
    connections: 0,
  };
  wss.on('connection', (ws) => {
    server.connections++;
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { id?: number; method?: string; params?: unknown };
      if (message.id === undefined || message.method === undefined) return;
      const params = (message.params ?? {}) as Record<string, unknown>;
      const result = basicAnswer(message.method) ?? answer(message.method, params, ws);
      if (result !== undefined) ws.send(JSON.stringify({ id: message.id, result }));
    });
  });
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  );
  return server;
}

function basicAnswer(method: string): unknown {
  if (method === 'initialize') return { sessionId: 'hostile-session', environmentInfo: { cwd: 'file:///' } };
  if (method === 'environment/status') return { status: 'ready' };
  return undefined;
}

function clientOf(url: string): RemoteExecServerClient {
  const client = new RemoteExecServerClient({ transport: { kind: 'ws', url } });
  closers.push(() => client.close());
  return client;
}

const output = (seq: number) => ({
  method: 'process/output',
  params: { processId: 'p', seq, stream: 'stdout', chunk: Buffer.from(`${seq}\n`).toString('base64') },
});

describe('the client against a hostile server', () => {
  it('an absurd nextSeq (2^53 - 1) ends in one gap, not a walk over every seq', async () => {
    const absurd = Number.MAX_SAFE_INTEGER;
    const server = await hostileServer((method, _params, ws) => {
      if (method === 'process/start') {
        // Seq 1 never comes, and more than the reorder buffer holds arrive after it: the client
        // drops the overflow and asks process/read for what is missing.
        setImmediate(() => {
          for (let seq = 2; seq <= 400; seq++) ws.send(JSON.stringify(output(seq)));
        });
        return { processId: 'p' };
      }
      if (method === 'process/read') {
        return { chunks: [], nextSeq: absurd, exited: false, closed: false, failure: null };
      }
      return undefined;
    });
    const client = clientOf(server.url);
    await client.connect();
    const handle = await client.startProcess({ argv: ['x'], cwd: '/', tty: false, processId: 'p' });
    const events: ProcessEvent[] = [];
    handle.subscribe((event) => events.push(event));
    const last = await waitFor('the gap up to the claimed nextSeq', () =>
      events.find((e) => e.kind === 'gap' && e.toSeq === absurd - 1),
    );
    expect(last).toMatchObject({ kind: 'gap' });
    expect(events[0]).toMatchObject({ kind: 'gap', fromSeq: 1, toSeq: 1 });
    expect(handle.lastDeliveredSeq).toBe(absurd - 1);
  });

  it('a WebSocket message past the inbound cap closes the link with a clear error', async () => {
    const server = await hostileServer((method, _params, ws) => {
      if (method !== 'fs/readFile') return undefined;
      // Only the frame header of a 200 MiB text message: the client must refuse it by its length.
      const header = Buffer.alloc(10);
      header[0] = 0x81;
      header[1] = 127;
      header.writeBigUInt64BE(BigInt(200 * 1_048_576), 2);
      (ws as unknown as { _socket: Socket })._socket.write(header);
      return undefined;
    });
    const client = clientOf(server.url);
    const states: ConnectionState[] = [];
    client.onStateChange((state) => states.push(state));
    await client.connect();
    await expect(client.fs.readFile('/huge')).rejects.toThrow();
    const lost = await waitFor('the reconnect with its reason', () =>
      states.find((s) => s.kind === 'reconnecting'),
    );
    expect(lost.kind === 'reconnecting' && lost.reason).toContain(
      `larger than the client accepts (${MAX_INBOUND_MESSAGE_BYTES / 1_048_576} MiB)`,
    );
  });

  it('a stdio line past the inbound cap ends the stdio link with a clear error', async () => {
    // Answers initialize, then writes one endless line.
    const script = `
      const rl = require('node:readline').createInterface({ input: process.stdin });
      rl.on('line', (line) => {
        const m = JSON.parse(line);
        if (m.method !== 'initialize') return;
        process.stdout.write(JSON.stringify({ id: m.id, result: { sessionId: 's', environmentInfo: {} } }) + '\\n');
        const piece = 'x'.repeat(1 << 20);
        const more = () => { while (process.stdout.write(piece)); process.stdout.once('drain', more); };
        setTimeout(more, 50);
      });`;
    const client = new RemoteExecServerClient({
      transport: { kind: 'stdio', command: [process.execPath, '-e', script] },
    });
    closers.push(() => client.close());
    await client.connect();
    const failed = await waitFor(
      'the client to fail',
      () => (client.state.kind === 'failed' ? client.state : null),
      60_000,
    );
    expect(failed.reason).toContain('larger than the client accepts');
  });
});
