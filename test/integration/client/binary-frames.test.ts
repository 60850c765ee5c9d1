// Tether's client with binary data frames, through a tap that records what crosses the wire: raw
// bytes in data frames against Tether's server (output, uploads, downloads), and exactly codex's
// JSON text against codex's server or when the client is told not to ask. Byte-exact everywhere.
// A small hostile server shows that data frames the client did not agree to, or malformed ones,
// are reported and dropped while the link keeps serving.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { followProcess } from '../../chaos/process-follower';
import { startServer, type ServerImpl, type StartedServer } from '../../support/exec-servers';
import { WsTap } from '../../support/ws-tap';

const DONE_MS = 60_000;

const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

async function setUp(
  impl: ServerImpl,
  binaryFrames?: boolean,
): Promise<{ server: StartedServer; tap: WsTap; client: RemoteExecServerClient }> {
  const server = await startServer(impl, 'ws');
  opened.push(() => server.stop());
  const tap = await WsTap.start(server.url!);
  opened.push(() => tap.close());
  const client = new RemoteExecServerClient({
    transport: server.transportSpec(tap.url),
    ...(binaryFrames === undefined ? {} : { binaryFrames }),
  });
  opened.push(() => client.close());
  await client.connect();
  return { server, tap, client };
}

async function catOutput(
  client: RemoteExecServerClient,
  server: StartedServer,
  file: string,
): Promise<Buffer> {
  const handle = await client.startProcess({
    argv: ['/bin/cat', file],
    cwd: server.home,
    env: { PATH: '/usr/bin:/bin' },
    tty: false,
  });
  const followed = followProcess(handle);
  const how = await Promise.race([
    followed.finished,
    new Promise<string>((resolve) => setTimeout(() => resolve('timed out'), DONE_MS)),
  ]);
  expect(how).toBe('closed');
  expect(followed.problems).toEqual([]);
  return followed.output();
}

async function* blocksOf(data: Buffer, size: number): AsyncIterable<Uint8Array> {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

const dataFrames = (tap: WsTap, direction: 'up' | 'down'): number =>
  tap.count(direction, (m) => m.dataFrameHeader !== undefined);
const binaryMessages = (tap: WsTap, direction: 'up' | 'down'): number =>
  tap.count(direction, (m) => m.binary);

describe.each<ServerImpl>(['tether', 'codex'])('the Tether client against %s', (impl) => {
  const binary = impl === 'tether';

  it(`output, uploads and downloads are byte-exact, ${binary ? 'in data frames' : 'in JSON text only'}`, async () => {
    const { server, tap, client } = await setUp(impl);
    const content = randomBytes(3_000_000);
    const local = path.join(server.home, 'source.bin');
    writeFileSync(local, content);

    const output = await catOutput(client, server, local);
    expect(output.equals(content)).toBe(true);
    const outputFrames = dataFrames(tap, 'down');
    expect(outputFrames > 1).toBe(binary);

    const uploaded = path.join(server.home, 'uploaded.bin');
    await client.fs.writeStream(uploaded, blocksOf(content, 1_048_576));
    expect(readFileSync(uploaded).equals(content)).toBe(true);
    expect(dataFrames(tap, 'up') >= 3).toBe(binary);

    const pieces: Buffer[] = [];
    await client.fs.readStream(uploaded, (chunk) => void pieces.push(Buffer.from(chunk)));
    expect(Buffer.concat(pieces).equals(content)).toBe(true);
    expect(dataFrames(tap, 'down') - outputFrames >= 3).toBe(binary);

    if (!binary) {
      // Codex's server and Tether's client never put a binary message on the wire.
      expect(binaryMessages(tap, 'up')).toBe(0);
      expect(binaryMessages(tap, 'down')).toBe(0);
    }
  });
});

it('a client told not to ask for binary frames speaks JSON to Tether too', async () => {
  const { server, tap, client } = await setUp('tether', false);
  const content = randomBytes(500_000);
  const local = path.join(server.home, 'source.bin');
  writeFileSync(local, content);
  expect((await catOutput(client, server, local)).equals(content)).toBe(true);
  const uploaded = path.join(server.home, 'uploaded.bin');
  await client.fs.writeStream(uploaded, blocksOf(content, 100_000));
  expect(readFileSync(uploaded).equals(content)).toBe(true);
  expect(binaryMessages(tap, 'up')).toBe(0);
  expect(binaryMessages(tap, 'down')).toBe(0);
});

/** A data frame built by hand: magic, version, u32 BE header length, header, payload. */
function handMadeFrame(header: string, payload: Buffer, declaredHeaderBytes?: number): Buffer {
  const text = Buffer.from(header);
  const prefix = Buffer.from([0xb7, 1, 0, 0, 0, 0]);
  prefix.writeUInt32BE(declaredHeaderBytes ?? text.length, 2);
  return Buffer.concat([prefix, text, payload]);
}

/**
 * A ws server that agrees to binary frames or not, and answers fs/readBlock with junk binary
 * messages first (a data frame regardless of the agreement, malformed ones), then a real answer.
 */
async function framingServer(agree: boolean): Promise<{ url: string; connections: () => number }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => wss.once('listening', resolve));
  opened.push(
    () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close(() => resolve());
      }),
  );
  let connections = 0;
  wss.on('connection', (ws) => {
    connections++;
    ws.on('message', (data) => {
      const { id, method } = JSON.parse(data.toString()) as { id?: number; method?: string };
      if (id === undefined) return;
      const send = (result: unknown): void => ws.send(JSON.stringify({ id, result }));
      if (method === 'initialize') {
        send({
          sessionId: 's',
          environmentInfo: { cwd: 'file:///' },
          ...(agree ? { tetherBinaryFrames: true } : {}),
        });
      } else if (method === 'fs/readBlock') {
        const header = `{"id":${id},"result":{"chunk":{"payloadRef":[0,5]},"eof":true}}`;
        if (agree) {
          ws.send(Buffer.from([0xb7, 1]), { binary: true });
          ws.send(handMadeFrame(header, Buffer.from('hello!')), { binary: true });
          ws.send(handMadeFrame(header, Buffer.from('hello'), header.length + 1), { binary: true });
          ws.send(handMadeFrame(header, Buffer.from('hello')), { binary: true });
        } else {
          ws.send(handMadeFrame(header, Buffer.from('hello')), { binary: true });
          send({ chunk: Buffer.from('plain').toString('base64'), eof: true });
        }
      } else send({});
    });
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as { port: number }).port}`,
    connections: () => connections,
  };
}

describe('binary frames the client must refuse', () => {
  it.each([false, true])(
    'server agreed=%s: bad or unagreed data frames are reported and dropped',
    async (agree) => {
      const server = await framingServer(agree);
      const log: string[] = [];
      const client = new RemoteExecServerClient({
        transport: { kind: 'ws', url: server.url },
        log: (line) => log.push(line),
      });
      opened.push(() => client.close());
      await client.connect();
      const result = await client.callOnce('fs/readBlock', { handleId: 'h', offset: 0, len: 5 });
      const bytes =
        typeof result.chunk === 'string' ? Buffer.from(result.chunk, 'base64') : Buffer.from(result.chunk);
      expect(bytes.toString()).toBe(agree ? 'hello' : 'plain');
      if (agree) {
        expect(log.filter((line) => /malformed binary data frame/.test(line))).toHaveLength(3);
      } else {
        expect(log.some((line) => /did not agree to them in initialize/.test(line))).toBe(true);
      }
      // Nothing of it took the link down.
      expect(server.connections()).toBe(1);
      expect(client.state.kind).toBe('connected');
    },
  );
});
