// Tether's binary data frames (tetherBinaryFrames) on a real server, seen from a raw WebSocket
// client that builds and reads frames by hand (not with the codec under test): byte-exact output,
// replays and file blocks once negotiated, codex's JSON for a client that does not ask, and a clear
// error for every malformed frame while the connection and the server keep serving.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer, type ServerImpl, type StartedServer } from '../../support/exec-servers';

const WAIT_MS = 20_000;
const MAGIC = 0xb7;

interface Received {
  binary: boolean;
  message: Record<string, unknown>;
}

/** Builds a data frame by hand: magic, version, u32 BE header length, header, payload. */
function dataFrame(header: string, payload: Buffer = Buffer.alloc(0), declaredHeaderBytes?: number): Buffer {
  const headerBytes = Buffer.from(header, 'utf8');
  const prefix = Buffer.alloc(6);
  prefix[0] = MAGIC;
  prefix[1] = 1;
  prefix.writeUInt32BE(declaredHeaderBytes ?? headerBytes.length, 2);
  return Buffer.concat([prefix, headerBytes, payload]);
}

/** Reads a data frame by hand, replacing each {"payloadRef":[offset,length]} by its bytes. */
function readDataFrame(frame: Buffer): Record<string, unknown> {
  expect(frame[0]).toBe(MAGIC);
  expect(frame[1]).toBe(1);
  const headerEnd = 6 + frame.readUInt32BE(2);
  const payload = frame.subarray(headerEnd);
  return JSON.parse(frame.toString('utf8', 6, headerEnd), (_key, value: unknown) => {
    const ref = (value as { payloadRef?: [number, number] } | null)?.payloadRef;
    if (!Array.isArray(ref)) return value;
    expect(ref[0] + ref[1]).toBeLessThanOrEqual(payload.length);
    return Buffer.from(payload.subarray(ref[0], ref[0] + ref[1]));
  }) as Record<string, unknown>;
}

class RawLink {
  readonly received: Received[] = [];
  private nextId = 1;
  private readonly waiters = new Set<() => void>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, binary: boolean) => {
      const message =
        binary && data[0] === MAGIC
          ? readDataFrame(data)
          : (JSON.parse(data.toString('utf8')) as Record<string, unknown>);
      this.received.push({ binary, message });
      for (const wake of this.waiters) wake();
    });
  }

  static async open(server: StartedServer): Promise<RawLink> {
    const ws = new WebSocket(server.url!, { headers: server.authHeaders(), maxPayload: 0 });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new RawLink(ws);
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  waitFor(what: string, match: (r: Received) => boolean): Promise<Received> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = this.received.find(match);
        if (!found) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}`));
      }, WAIT_MS);
      this.waiters.add(check);
      check();
    });
  }

  /** Sends a request (as JSON text, or as given bytes in a binary message) and waits for its answer. */
  async call(method: string, params: unknown, asFrame?: (id: number) => Buffer): Promise<Received> {
    const id = this.nextId++;
    if (asFrame) this.ws.send(asFrame(id), { binary: true });
    else this.ws.send(JSON.stringify({ id, method, params }));
    return this.waitFor(`the answer to ${method} #${id}`, (r) => r.message.id === id);
  }

  sendBinary(bytes: Buffer): void {
    this.ws.send(bytes, { binary: true });
  }

  async handshake(binaryFrames: boolean): Promise<Received> {
    const answer = await this.call('initialize', {
      clientName: 'binary-frames-test',
      ...(binaryFrames ? { tetherBinaryFrames: true } : {}),
    });
    this.ws.send(JSON.stringify({ method: 'initialized', params: {} }));
    return answer;
  }

  close(): void {
    this.ws.terminate();
  }
}

/** Output of process `processId` as received, in seq order, checking each seq arrives once. */
function outputOf(link: RawLink, processId: string): { bytes: Buffer; binary: boolean[] } {
  const outputs = link.received.filter(
    (r) =>
      r.message.method === 'process/output' &&
      (r.message.params as { processId: string }).processId === processId,
  );
  const seqs = outputs.map((r) => (r.message.params as { seq: number }).seq);
  expect(new Set(seqs).size).toBe(seqs.length);
  const chunks = outputs.map((r) => {
    const chunk = (r.message.params as { chunk: unknown }).chunk;
    return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, 'base64');
  });
  return { bytes: Buffer.concat(chunks), binary: outputs.map((r) => r.binary) };
}

async function runToClose(
  link: RawLink,
  server: StartedServer,
  processId: string,
  file: string,
): Promise<void> {
  const started = await link.call('process/start', {
    processId,
    argv: ['/bin/cat', file],
    cwd: `file://${server.home}`,
    env: { PATH: '/usr/bin:/bin' },
    tty: false,
    arg0: null,
  });
  expect(started.message.error).toBeUndefined();
  await link.waitFor(`${processId} closed`, (r) => r.message.method === 'process/closed');
}

describe.each<ServerImpl>(['tether', 'codex'])('output and file blocks against %s', (impl) => {
  let server: StartedServer;
  let file: string;
  let content: Buffer;
  beforeAll(async () => {
    server = await startServer(impl, 'ws');
    file = path.join(server.home, 'random.bin');
    // Several output chunks, with every byte value.
    content = randomBytes(700_000);
    writeFileSync(file, content);
  });
  afterAll(() => server.stop());

  it('a client that asks for binary frames gets them only from Tether, byte-exact either way', async () => {
    const link = await RawLink.open(server);
    try {
      const init = await link.handshake(true);
      expect(init.binary).toBe(false);
      const result = init.message.result as Record<string, unknown>;
      const caps = (result.environmentInfo as { capabilities: Record<string, unknown> }).capabilities;
      expect(result.tetherBinaryFrames ?? false).toBe(impl === 'tether');
      expect(caps.tetherBinaryFrames ?? false).toBe(impl === 'tether');
      await runToClose(link, server, 'p1', file);
      const output = outputOf(link, 'p1');
      expect(output.bytes.equals(content)).toBe(true);
      expect(output.binary.length).toBeGreaterThan(1);
      expect(output.binary.every((b) => b === (impl === 'tether'))).toBe(true);

      // The replay of retained output (what a client reads after a reconnect) too.
      const read = await link.call('process/read', { processId: 'p1', afterSeq: 0 });
      expect(read.binary).toBe(impl === 'tether');
      const chunks = (read.message.result as { chunks: Array<{ chunk: unknown }> }).chunks;
      const replayed = Buffer.concat(
        chunks.map(({ chunk }) => (Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, 'base64'))),
      );
      expect(replayed.equals(content)).toBe(true);
    } finally {
      link.close();
    }
  });

  it('a plain codex-protocol client gets only JSON text frames with base64', async () => {
    const link = await RawLink.open(server);
    try {
      const init = await link.handshake(false);
      expect((init.message.result as Record<string, unknown>).tetherBinaryFrames).toBeUndefined();
      await runToClose(link, server, 'p2', file);
      expect(link.received.every((r) => !r.binary)).toBe(true);
      expect(outputOf(link, 'p2').bytes.equals(content)).toBe(true);
    } finally {
      link.close();
    }
  });
});

describe('file blocks and malformed frames on Tether', () => {
  let server: StartedServer;
  beforeAll(async () => {
    server = await startServer('tether', 'ws');
  });
  afterAll(() => server.stop());

  it('fs/writeBlock and fs/readBlock carry raw bytes in data frames', async () => {
    const link = await RawLink.open(server);
    try {
      await link.handshake(true);
      const target = path.join(server.home, 'blocks.bin');
      const uri = `file://${target}`;
      const blocks = [randomBytes(1_048_576), randomBytes(77_777)];
      expect(
        (await link.call('fs/open', { handleId: 'w', path: uri, mode: 'replace' })).message.error,
      ).toBeUndefined();
      let offset = 0;
      for (const block of blocks) {
        const at = offset;
        const answer = await link.call('fs/writeBlock', null, (id) =>
          dataFrame(
            JSON.stringify({
              id,
              method: 'fs/writeBlock',
              params: { handleId: 'w', offset: at, chunk: { payloadRef: [0, block.length] } },
            }),
            block,
          ),
        );
        expect(answer.message.error).toBeUndefined();
        offset += block.length;
      }
      await link.call('fs/close', { handleId: 'w' });
      expect(readFileSync(target).equals(Buffer.concat(blocks))).toBe(true);

      await link.call('fs/open', { handleId: 'r', path: uri, mode: 'read' });
      const read = await link.call('fs/readBlock', { handleId: 'r', offset: 1_000_000, len: 200_000 });
      expect(read.binary).toBe(true);
      const result = read.message.result as { chunk: Buffer; eof: boolean };
      expect(result.chunk.equals(Buffer.concat(blocks).subarray(1_000_000))).toBe(true);
      expect(result.eof).toBe(true);
    } finally {
      link.close();
    }
  });

  it('answers each malformed binary frame with a clear error and keeps serving', async () => {
    const before = await RawLink.open(server);
    const early = dataFrame('{"id":1,"method":"environment/status","params":{}}');
    before.sendBinary(early);
    const refused = await before.waitFor('the refusal', (r) => r.message.error !== undefined);
    expect((refused.message.error as { message: string }).message).toMatch(
      /did not negotiate tetherBinaryFrames/,
    );
    // JSON in a binary message is still fine before (and after) negotiation, as codex takes it.
    before.sendBinary(
      Buffer.from(JSON.stringify({ id: 7, method: 'initialize', params: { clientName: 'x' } })),
    );
    await before.waitFor(
      'initialize from a binary JSON message',
      (r) => r.message.id === 7 && r.message.result !== undefined,
    );
    before.close();

    const link = await RawLink.open(server);
    try {
      await link.handshake(true);
      const header = (id: number, ref: string): string =>
        `{"id":${id},"method":"fs/writeBlock","params":{"handleId":"none","offset":0,"chunk":${ref}}}`;
      const bad: Array<[string, Buffer, RegExp, number | null]> = [
        ['a truncated prefix', Buffer.from([MAGIC, 1, 0]), /truncated data frame/, null],
        [
          'a header longer than the frame',
          dataFrame(header(101, '{"payloadRef":[0,1]}'), Buffer.from('x'), 500),
          /truncated data frame: the header claims 500/,
          null,
        ],
        [
          'a header one byte short',
          dataFrame(
            header(102, '{"payloadRef":[0,1]}'),
            Buffer.from('x'),
            header(102, '{"payloadRef":[0,1]}').length - 1,
          ),
          /not valid JSON|Unexpected|JSON/i,
          null,
        ],
        [
          'an unknown version',
          Buffer.from([MAGIC, 9, 0, 0, 0, 2, 0x7b, 0x7d]),
          /unsupported data frame version 9/,
          null,
        ],
        [
          'a reference past the payload',
          dataFrame(header(103, '{"payloadRef":[0,9]}'), Buffer.from('abc')),
          /past the end of the 3-byte payload/,
          103,
        ],
        [
          'payload bytes no header refers to',
          dataFrame(header(104, '{"payloadRef":[0,2]}'), Buffer.from('abc')),
          /3 bytes, but the header refers to 2/,
          104,
        ],
        [
          'a payload without any reference',
          dataFrame(header(105, '"AAAA"'), Buffer.from('abc')),
          /header refers to 0/,
          105,
        ],
        [
          'a malformed reference',
          dataFrame(header(106, '{"payloadRef":"0"}'), Buffer.from('abc')),
          /malformed payload reference/,
          106,
        ],
      ];
      for (const [what, frame, reason, id] of bad) {
        const mark = link.received.length;
        link.sendBinary(frame);
        const answer = await link.waitFor(
          what,
          (r) => link.received.indexOf(r) >= mark && r.message.error !== undefined,
        );
        const error = answer.message.error as { code: number; message: string };
        expect(error.code, what).toBe(-32600);
        expect(error.message, what).toMatch(reason);
        expect(answer.message.id, what).toBe(id ?? -1);
      }
      // The same connection still answers, and so does the server to a new one.
      expect((await link.call('environment/status', {})).message.result).toEqual({ status: 'ready' });
      expect(link.open).toBe(true);
      const fresh = await RawLink.open(server);
      expect((await fresh.handshake(true)).message.result).toBeDefined();
      fresh.close();
    } finally {
      link.close();
    }
  });
});
