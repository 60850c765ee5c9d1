// Seeded fuzzing of a live exec-server over WebSocket: thousands of random and mutated frames
// (flipped bytes, truncated JSON, wrong param types, huge numbers, deep nesting, invalid UTF-8,
// random methods). Afterwards the server must still be alive, serve a normal session, and not have
// grown its memory or process count without bound. Set TETHER_FUZZ_SEED to replay one run.
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Method } from '../../shared/protocol';
import { startServer, type ServerImpl } from '../support/exec-servers';
import { RpcPeer } from '../support/rpc-peer';
import { collectProcess, startParams } from './scenario-kit';
import { seededRandom } from '../support/seeded-random';

const FRAMES = 3_000;
/** Every this many frames the fuzzer checks that the connection still answers. */
const CHECK_EVERY = 100;
const SEED = Number(process.env.TETHER_FUZZ_SEED ?? 0x7e7e7);
/** Allowed growth of the server's resident memory over the run. */
const MAX_RSS_GROWTH_BYTES = 256 * 1024 * 1024;
/** Child processes the server may still have once the fuzzed ones had time to finish. */
const MAX_LEFTOVER_CHILDREN = 5;

const random = seededRandom;

type Frame = { text: string } | { bytes: Buffer };

/** Builds fuzz frames. Paths stay inside `scratch` and programs are harmless, so no frame can do damage. */
class FrameFactory {
  constructor(
    private readonly rand: () => number,
    private readonly scratch: string,
  ) {}

  private int(n: number): number {
    return Math.floor(this.rand() * n);
  }

  private pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** Random text that can be neither an absolute path nor a program name on PATH. */
  private word(): string {
    return `fz~${this.int(1e9).toString(36)}`;
  }

  private value(depth = 0): unknown {
    const kinds = ['null', 'bool', 'int', 'huge', 'float', 'neg', 'string', 'array', 'object'] as const;
    switch (this.pick(depth > 3 ? kinds.slice(0, 7) : kinds)) {
      case 'null':
        return null;
      case 'bool':
        return this.rand() < 0.5;
      case 'int':
        return this.int(100);
      case 'huge':
        return this.pick([2 ** 64, 1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 53]);
      case 'float':
        return this.rand() * 10;
      case 'neg':
        return -this.int(1e6) - 1;
      case 'string':
        return this.word();
      case 'array':
        return Array.from({ length: this.int(4) }, () => this.value(depth + 1));
      default:
        return Object.fromEntries(
          Array.from({ length: this.int(4) }, () => [this.word(), this.value(depth + 1)]),
        );
    }
  }

  private uri(): string {
    return pathToFileURL(path.join(this.scratch, this.pick(['', 'a', 'missing', 'd/e']))).href;
  }

  /** A well-formed, harmless request (or the initialized notification). */
  private valid(): Record<string, unknown> {
    const id = this.rand() < 0.2 ? this.word() : this.int(1e6);
    const processId = this.pick(['p1', 'p2', 'nope']);
    const requests: Array<[string, unknown]> = [
      [Method.environmentStatus, undefined],
      [Method.environmentInfo, {}],
      [Method.initialize, { clientName: 'fuzz', resumeSessionId: this.pick([null, 'nope']) }],
      [Method.processStart, startParams(processId, ['/bin/echo', 'fuzz'], this.uri())],
      [
        Method.processRead,
        { processId, afterSeq: this.int(5), maxBytes: this.int(50), waitMs: this.int(20) },
      ],
      [Method.processWrite, { processId, chunk: 'eA==', writeId: String(this.int(10)) }],
      [Method.processSignal, { processId, signal: 'interrupt' }],
      [Method.processTerminate, { processId }],
      [Method.fsReadFile, { path: this.uri() }],
      [Method.fsGetMetadata, { path: this.uri() }],
      [Method.fsReadDirectory, { path: this.uri() }],
      [Method.fsCanonicalize, { path: this.uri() }],
      [
        Method.fsWalk,
        {
          path: this.uri(),
          options: { maxDepth: 2, maxDirectories: 5, maxEntries: 20, followDirectorySymlinks: false },
        },
      ],
      [Method.fsOpen, { handleId: this.pick(['h', 'k']), path: this.uri() }],
      [Method.fsReadBlock, { handleId: this.pick(['h', 'k']), offset: this.int(10), len: this.int(10) }],
      [Method.fsClose, { handleId: this.pick(['h', 'k']) }],
    ];
    const [method, params] = this.pick(requests);
    return params === undefined ? { id, method } : { id, method, params };
  }

  next(): Frame {
    const valid = JSON.stringify(this.valid());
    switch (this.int(9)) {
      case 0:
        return { text: valid };
      case 1: {
        const bytes = Buffer.from(valid);
        for (let i = 0; i < 1 + this.int(3); i++) bytes[this.int(bytes.length)] = this.int(128);
        return { text: bytes.toString('latin1') };
      }
      case 2:
        return { text: valid.slice(0, this.int(valid.length)) };
      case 3: {
        const message = this.valid();
        return { text: JSON.stringify({ ...message, params: this.value() }) };
      }
      case 4: {
        const message = this.valid();
        const params = (message.params ?? {}) as Record<string, unknown>;
        for (const key of Object.keys(params)) if (this.rand() < 0.5) params[key] = this.value();
        return { text: JSON.stringify({ ...message, params }) };
      }
      case 5: {
        const depth = 1 + this.int(400);
        return {
          text: `{"id":1,"method":"environment/status","params":${'['.repeat(depth)}${']'.repeat(depth)}}`,
        };
      }
      case 6:
        return { bytes: Buffer.from(Array.from({ length: 1 + this.int(64) }, () => 0x80 + this.int(128))) };
      case 7:
        return {
          text: JSON.stringify({
            id: this.value(),
            method: this.pick([this.word(), 'process/', 'fs/x', '']),
            params: this.value(),
          }),
        };
      default:
        return {
          text: `{"id":${this.pick(['1e400', '-0', '18446744073709551616', '1.0', '0x10'])},"method":"environment/status"}`,
        };
    }
  }
}

function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

function childCount(pid: number): number {
  let count = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) count++;
    } catch {
      // The process ended while we were listing.
    }
  }
  return count;
}

async function fuzz(impl: ServerImpl): Promise<void> {
  const server = await startServer(impl, 'ws');
  const scratch = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'tether-fuzz-')));
  const pid = server.child.pid as number;
  try {
    const rssBefore = rssBytes(pid);
    const factory = new FrameFactory(random(SEED), scratch);
    let peer = await RpcPeer.connectWs(server.url as string, { headers: server.authHeaders() });
    await peer.handshake();
    let drops = 0;
    for (let i = 1; i <= FRAMES; i++) {
      if (peer.isClosed) {
        drops++;
        peer = await RpcPeer.connectWs(server.url as string, { headers: server.authHeaders() });
        await peer.handshake();
      }
      const frame = factory.next();
      if ('text' in frame) peer.sendText(frame.text);
      else peer.sendBytes(frame.bytes);
      if (i % CHECK_EVERY === 0 && !peer.isClosed) {
        // A frame may have broken the protocol and be about to drop us; only a live answer counts.
        await peer
          .request('environment/status', undefined, { id: `check-${i}`, timeoutMs: 30_000 })
          .catch((error: Error) => {
            if (!peer.isClosed) throw error;
          });
      }
    }
    await peer.close().catch(() => undefined);
    expect(server.child.exitCode, `${impl} exec-server died while fuzzed (seed ${SEED})`).toBeNull();

    const check = await RpcPeer.connectWs(server.url as string, { headers: server.authHeaders() });
    await check.handshake();
    await check.call(
      'process/start',
      startParams('after-fuzz', ['/bin/echo', 'still serving'], pathToFileURL(scratch).href),
    );
    expect((await collectProcess(check, 'after-fuzz')).stdout).toBe('still serving\n');
    await check.close();

    const deadline = Date.now() + 10_000;
    while (childCount(pid) > MAX_LEFTOVER_CHILDREN && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect(childCount(pid)).toBeLessThanOrEqual(MAX_LEFTOVER_CHILDREN);
    expect(rssBytes(pid) - rssBefore).toBeLessThan(MAX_RSS_GROWTH_BYTES);
    expect(drops, 'some frames should have broken the protocol and been dropped').toBeGreaterThan(0);
  } finally {
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

describe.concurrent(`fuzzing ${FRAMES} frames (seed ${SEED})`, () => {
  it('Tether exec-server survives and still serves', { timeout: 120_000 }, () => fuzz('tether'));
  it('codex exec-server survives and still serves', { timeout: 120_000 }, () => fuzz('codex'));
});
