// The hostile side of the client's tests: a scriptable fake exec-server (ws, and stdio through
// hostile-stdio-server.mjs), a relay that rewrites what a real Tether server sends, and a seeded
// generator of the malformed, oversized and absurd frames a broken or malicious server might send.
// Everything a test asserts about the client facing such a server starts here.
import type { Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer, type RawData } from 'ws';
import { seededRandom } from './seeded-random';

/** One thing the server side does to the client. */
export type HostileAct =
  | { kind: 'text'; text: string }
  | { kind: 'binary'; bytes: Uint8Array }
  /** Half a message, then the socket (or stdout) is destroyed: a server dying mid-message. */
  | { kind: 'cut'; text: string }
  /** A WebSocket close with this code, or ending stdout. */
  | { kind: 'close'; code: number };

export interface HostileRequest {
  id: unknown;
  method: string;
  params: unknown;
}

/** What the fake server does: the acts answering each request (with an id) the client sends. */
export type HostileScript = (request: HostileRequest) => HostileAct[];

/** A well-behaved initialize answer, so the client gets far enough to meet the rest. */
export function initializeReply(
  id: unknown,
  binaryFrames: boolean,
  sessionId = 'hostile-session',
): HostileAct {
  return {
    kind: 'text',
    text: JSON.stringify({
      id,
      result: {
        sessionId,
        environmentInfo: { cwd: 'file:///' },
        ...(binaryFrames ? { tetherBinaryFrames: true } : {}),
      },
    }),
  };
}

// ── Seeded randomness ───────────────────────────────────────────────────────────────────────────

/** mulberry32: a tiny PRNG, so a failing round reproduces from its printed seed. */
export class Rng {
  /** Uniform in [0, 1). */
  readonly next: () => number;
  constructor(readonly seed: number) {
    this.next = seededRandom(seed);
  }
  int(below: number): number {
    return Math.floor(this.next() * below);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) out[i] = this.int(256);
    return out;
  }
}

/** A seed from TETHER_FUZZ_SEED, or a fresh one (printed by the caller so it can be replayed). */
export function fuzzSeed(): number {
  const given = process.env.TETHER_FUZZ_SEED;
  return given !== undefined && given !== '' ? Number(given) >>> 0 : (Math.random() * 2 ** 32) >>> 0;
}

// ── Frames ──────────────────────────────────────────────────────────────────────────────────────

/** A data frame (0xB7, version, header length, header, payload) with every field ours to choose. */
export function dataFrame(
  header: string,
  payload: Uint8Array = new Uint8Array(0),
  options: { version?: number; claimedHeaderBytes?: number } = {},
): Uint8Array {
  const headerBytes = Buffer.from(header, 'utf8');
  const frame = Buffer.alloc(6 + headerBytes.length + payload.length);
  frame[0] = 0xb7;
  frame[1] = options.version ?? 1;
  frame.writeUInt32BE(options.claimedHeaderBytes ?? headerBytes.length, 2);
  headerBytes.copy(frame, 6);
  frame.set(payload, 6 + headerBytes.length);
  return frame;
}

/** JSON text of `inner` wrapped in `depth` arrays. */
export function nested(depth: number, inner = '0'): string {
  return '['.repeat(depth) + inner + ']'.repeat(depth);
}

const ABSURD_NUMBERS = ['-1', '1e400', '9223372036854775808', '1.5', '"7"', 'null', '[]', '{}', '-0'];
const METHODS = [
  'process/output',
  'process/exited',
  'process/closed',
  'fs/changed',
  'tether/unknown',
  '',
  'initialize',
  'process/start',
];

/**
 * One hostile act chosen by `rng`: for `id` (a request the client made, or undefined) and a
 * process the client may be following. Sizes stay a few MiB at most, so a round stays fast.
 */
export function hostileAct(rng: Rng, id: unknown, processId: string, binaryFrames: boolean): HostileAct {
  const seq = (): string => rng.pick([...ABSURD_NUMBERS, String(rng.int(1_000_000)), '1']);
  const anyId = (): string =>
    rng.pick([JSON.stringify(id ?? 1), '999999', '"nobody"', 'null', '1.5', '{"x":1}', '-1']);
  const choices: Array<() => HostileAct> = [
    () => ({ kind: 'text', text: Buffer.from(rng.bytes(1 + rng.int(64))).toString('latin1') }),
    () => ({ kind: 'binary', bytes: rng.bytes(1 + rng.int(64)) }),
    () => ({ kind: 'text', text: nested(129 + rng.int(30_000)) }),
    () => ({ kind: 'text', text: `{"method":"fs/changed","params":${nested(64 + rng.int(200), '{}')}}` }),
    () => ({ kind: 'text', text: `[${'0,'.repeat(262_144 + rng.int(1000))}0]` }),
    () => ({
      kind: 'text',
      text: `{"method":"process/output","params":{"processId":${JSON.stringify(processId)},"seq":${seq()},"stream":"stdout","chunk":"aGk="}}`,
    }),
    () => ({
      kind: 'text',
      text: `{"method":"process/exited","params":{"processId":${JSON.stringify(processId)},"seq":${seq()},"exitCode":${seq()}}}`,
    }),
    () => ({
      kind: 'text',
      text: JSON.stringify({
        method: rng.pick(METHODS),
        params: { processId, junk: 'x'.repeat(rng.int(100)) },
      }),
    }),
    () => ({ kind: 'text', text: `{"id":${anyId()},"result":{"sessionId":1}}` }),
    () => ({ kind: 'text', text: `{"id":${anyId()},"error":{"code":${seq()},"message":${seq()}}}` }),
    () => ({ kind: 'text', text: `{"id":${anyId()},"method":"client/please","params":{}}` }),
    () => ({ kind: 'text', text: `[{"id":${anyId()},"result":{}}]` }),
    () => ({
      kind: 'text',
      text: JSON.stringify({
        method: 'process/output',
        params: { processId, seq: 1, stream: 'stdout', chunk: 'A'.repeat(1 + rng.int(4 * 1_048_576)) },
      }),
    }),
    () => ({ kind: 'text', text: JSON.stringify({ method: 'x'.repeat(rng.int(2_000_000)), params: null }) }),
    () => ({ kind: 'cut', text: `{"id":${anyId()},"result":{"chunk":"${'Q'.repeat(rng.int(5000))}` }),
    () => ({ kind: 'close', code: rng.pick([1000, 1002, 1008, 1011, 4000]) }),
  ];
  if (binaryFrames) {
    const header = (inner: string): string => `{"id":${anyId()},"result":{"chunk":${inner},"eof":true}}`;
    choices.push(
      () => ({ kind: 'binary', bytes: dataFrame(nested(129 + rng.int(30_000))) }),
      () => ({
        kind: 'binary',
        bytes: dataFrame(nested(50 + rng.int(78), '{"payloadRef":[0,1]}'), rng.bytes(1)),
      }),
      () => ({ kind: 'binary', bytes: dataFrame(header('{"payloadRef":[0,5]}'), rng.bytes(rng.int(10))) }),
      () => ({
        kind: 'binary',
        bytes: dataFrame(header(`{"payloadRef":[${seq()},${seq()}]}`), rng.bytes(rng.int(10))),
      }),
      () => ({
        kind: 'binary',
        bytes: dataFrame(header('{"payloadRef":[0,1]}'), rng.bytes(1), {
          claimedHeaderBytes: rng.pick([0, 0xffffffff, 3, 10_000_000]),
        }),
      }),
      () => ({ kind: 'binary', bytes: dataFrame(header('1'), new Uint8Array(0), { version: rng.int(256) }) }),
      () => ({ kind: 'binary', bytes: dataFrame(Buffer.from(rng.bytes(40)).toString('latin1')) }),
      () => ({
        kind: 'binary',
        bytes: dataFrame(
          `{"method":"process/output","params":{"processId":${JSON.stringify(processId)},"seq":${seq()},"stream":"stdout","chunk":{"payloadRef":[0,3]}}}`,
          rng.bytes(3),
        ),
      }),
    );
  }
  return rng.pick(choices)();
}

// ── The fake ws server ──────────────────────────────────────────────────────────────────────────

export interface HostileWsServer {
  url: string;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

function perform(ws: WebSocket, act: HostileAct): void {
  if (ws.readyState !== WebSocket.OPEN) return;
  switch (act.kind) {
    case 'text':
      ws.send(act.text);
      return;
    case 'binary':
      ws.send(act.bytes, { binary: true });
      return;
    case 'cut': {
      // Half a WebSocket frame on the raw socket, then the socket dies with it.
      const payload = Buffer.from(act.text, 'utf8');
      const head = Buffer.from([0x81, 126, (payload.length + 10) >> 8, (payload.length + 10) & 0xff]);
      const socket = (ws as unknown as { _socket: Socket })._socket;
      socket.write(Buffer.concat([head, payload]), () => socket.destroy());
      return;
    }
    case 'close':
      ws.close(act.code);
      return;
  }
}

/** A ws "exec-server" on 127.0.0.1 that answers each request with what `script` says. */
export async function startHostileWsServer(script: HostileScript): Promise<HostileWsServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 256 * 1_048_576 });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  let connections = 0;
  wss.on('connection', (ws) => {
    connections++;
    ws.on('error', () => undefined);
    ws.on('message', (data: RawData) => {
      let request: HostileRequest;
      try {
        request = JSON.parse(String(data)) as HostileRequest;
      } catch {
        return; // a data frame from the client: nothing here needs it
      }
      if (request.id === undefined) return; // the client's notifications need no answer
      for (const act of script(request)) perform(ws, act);
    });
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as { port: number }).port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close(() => resolve());
      }),
  };
}

// ── The stdio variant ───────────────────────────────────────────────────────────────────────────

const STDIO_SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'hostile-stdio-server.mjs');

/**
 * The argv of a stdio "exec-server" that answers initialize properly (agreeing to binary frames
 * with `binaryFrames`), then writes `lines` (each followed by a newline), then `raw` bytes as they
 * are, then `cut` (no newline), then idles or exits (`thenExit`).
 */
export function hostileStdioCommand(
  lines: string[],
  options: { cut?: string; thenExit?: boolean; binaryFrames?: boolean; raw?: Uint8Array } = {},
): string[] {
  const script = Buffer.from(
    JSON.stringify({
      lines,
      cut: options.cut ?? null,
      exit: options.thenExit === true,
      binaryFrames: options.binaryFrames === true,
      raw: options.raw ? Buffer.from(options.raw).toString('base64') : null,
    }),
  );
  return [process.execPath, STDIO_SERVER, script.toString('base64')];
}

// ── The rewriting relay ─────────────────────────────────────────────────────────────────────────

/** Turns one message of the real server into what the client gets instead (none, one or more). */
export type Rewrite = (data: Buffer, binary: boolean) => HostileAct[];

export interface RewritingRelay {
  url: string;
  close(): Promise<void>;
}

/**
 * A ws relay in front of a real server at `upstreamUrl`: what the client sends goes through
 * untouched (with `headers` added upstream), what the server sends passes through `rewrite`.
 */
export async function startRewritingRelay(
  upstreamUrl: string,
  headers: Record<string, string>,
  rewrite: Rewrite,
): Promise<RewritingRelay> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: 256 * 1_048_576 });
  await new Promise<void>((resolve) => wss.once('listening', resolve));
  const upstreams = new Set<WebSocket>();
  wss.on('connection', (client) => {
    client.on('error', () => undefined);
    const upstream = new WebSocket(upstreamUrl, { headers, perMessageDeflate: false });
    upstreams.add(upstream);
    upstream.on('error', () => client.terminate());
    const early: Array<[RawData, boolean]> = [];
    client.on('message', (data: RawData, binary: boolean) => {
      if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary });
      else early.push([data, binary]);
    });
    upstream.on('open', () => {
      for (const [data, binary] of early.splice(0)) upstream.send(data, { binary });
    });
    upstream.on('message', (data: RawData, binary: boolean) => {
      const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      for (const act of rewrite(bytes, binary)) perform(client, act);
    });
    upstream.on('close', () => client.terminate());
    client.on('close', () => upstream.terminate());
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as { port: number }).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of upstreams) ws.terminate();
        for (const ws of wss.clients) ws.terminate();
        wss.close(() => resolve());
      }),
  };
}

/** A rewrite that mostly passes messages through and now and then mangles one (by `rng`). */
export function mangling(rng: Rng, processId: () => string, binaryFrames: boolean): Rewrite {
  return (data, binary) => {
    const roll = rng.next();
    const asIs: HostileAct = binary
      ? { kind: 'binary', bytes: data }
      : { kind: 'text', text: data.toString('utf8') };
    if (roll < 0.7) return [asIs];
    if (roll < 0.8) {
      // Flip a few bytes of the real message.
      const copy = Buffer.from(data);
      for (let i = 0; i < 1 + rng.int(4); i++) copy[rng.int(copy.length)] = rng.int(256);
      return [binary ? { kind: 'binary', bytes: copy } : { kind: 'text', text: copy.toString('latin1') }];
    }
    if (roll < 0.85) return [asIs, asIs];
    if (roll < 0.9) return [];
    return [hostileAct(rng, undefined, processId(), binaryFrames), asIs];
  };
}
