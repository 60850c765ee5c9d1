// The vocabulary of conformance scenarios: what a scenario is, the context it runs in, the
// normalised transcript it records, and helpers to drive processes and decode their output.
// A transcript holds only what both servers must agree on, with run-specific values replaced.
import type { ServerImpl, ServerTransport, StartedServer } from '../support/exec-servers';
import type { RpcPeer, RpcResponse, WsConnectOptions } from '../support/rpc-peer';
import { FsErrorKind, ProcessErrorKind } from '../../shared/protocol';
import type { DifferenceId } from './differences';

/** Bound for waiting on a process to finish in a scenario. */
export const PROCESS_WAIT_MS = 20_000;
/** How long a scenario watches for something that must not happen (a response, a close). */
export const QUIET_WINDOW_MS = 600;

export type TranscriptEntry = [label: string, value: unknown];

export interface ScenarioContext {
  impl: ServerImpl;
  transport: ServerTransport;
  /** The server under test (for stdio: this scenario's own server). */
  server: () => StartedServer;
  /** A fresh connection: a new socket on ws; on stdio the single connection of this scenario's server. */
  connect: (options?: WsConnectOptions) => Promise<RpcPeer>;
  /** A fresh connection that has completed initialize + initialized. */
  session: () => Promise<{ peer: RpcPeer; sessionId: string; environmentInfo: Record<string, unknown> }>;
  /** A fresh, empty directory for this run (realpath), removed afterwards. */
  scratch: string;
  /** `file://` URI of a path relative to `scratch` (or of `scratch` itself). */
  uri: (relative?: string) => string;
  /** Adds a normalised entry to the transcript compared between servers. */
  record: (label: string, value: unknown) => void;
  /** Secret token of servers started with capability-token auth. */
  token?: string;
}

export interface Scenario {
  name: string;
  /** Transports the scenario applies to; both when absent. */
  transports?: ServerTransport[];
  /**
   * Set when Tether intentionally behaves differently: the transcripts are then not compared and
   * the scenario asserts each server's own behaviour (the id is explained in docs/compatibility.md).
   */
  differs?: DifferenceId;
  timeoutMs?: number;
  run: (ctx: ScenarioContext) => Promise<void>;
}

// ── Normalisation ────────────────────────────────────────────────────────────────────────────

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME_KEYS = new Set(['createdAtMs', 'modifiedAtMs']);

/** The typed error kinds Tether's server adds to codex's errors (same code and message). */
const TETHER_ERROR_KINDS = new Set<unknown>([ProcessErrorKind.unknownProcess, FsErrorKind.unknownFileHandle]);

function isTetherErrorData(value: unknown): boolean {
  return (
    value !== null && typeof value === 'object' && TETHER_ERROR_KINDS.has((value as { kind?: unknown }).kind)
  );
}

/** Replaces run-specific values (session ids, temp paths, ports, times, pids) with stable tokens. */
export class Normaliser {
  private readonly sessions = new Map<string, string>();

  constructor(private readonly paths: Array<[string, string]>) {}

  normalise(value: unknown, key?: string): unknown {
    if (typeof value === 'string') return this.text(value);
    if (typeof value === 'number' && key !== undefined && TIME_KEYS.has(key)) return '<ms>';
    if (Array.isArray(value)) return value.map((item) => this.normalise(item));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        if (k === 'environmentInfo') out[k] = v === undefined ? v : '<environmentInfo>';
        // `pid` in start results and the typed kinds of unknown-process and unknown-handle errors
        // are Tether extensions, asserted by their own scenario.
        else if (k === 'pid' && typeof v === 'number') continue;
        else if (k === 'data' && isTetherErrorData(v)) continue;
        else out[k] = this.normalise(v, k);
      }
      return out;
    }
    return value;
  }

  private text(value: string): string {
    let text = value.replace(UUID, (id) => {
      if (!this.sessions.has(id)) this.sessions.set(id, `<session-${this.sessions.size + 1}>`);
      return this.sessions.get(id) as string;
    });
    for (const [path, token] of this.paths) text = text.split(path).join(token);
    return text.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>');
  }
}

// ── Helpers ──────────────────────────────────────────────────────────────────────────────────

export const b64 = (text: string | Buffer): string => Buffer.from(text).toString('base64');

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Bytes as transcript text without losing any: valid UTF-8 as it reads, anything else as hex, so
 * two servers that send different invalid bytes (\377 vs U+FFFD's EF BF BD) never look alike.
 */
function bytesText(bytes: Buffer): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return `<not UTF-8: ${bytes.toString('hex')}>`;
  }
}

export const unb64 = (data: unknown): string => bytesText(Buffer.from(String(data), 'base64'));

/** A response with its error message replaced, for errors whose text is a parser's wording. */
export function looseError(answer: RpcResponse | Record<string, unknown>): unknown {
  const response = answer as RpcResponse;
  if (!response.error) return response;
  const { message, ...rest } = response.error;
  return {
    ...response,
    error: { ...rest, message: typeof message === 'string' && message ? '<text>' : message },
  };
}

export interface StartOptions {
  tty?: boolean;
  pipeStdin?: boolean;
  env?: Record<string, string>;
  cwd?: string;
  arg0?: string | null;
  extra?: Record<string, unknown>;
}

/** Standard `process/start` params with an absolute shell and a minimal environment. */
export function startParams(processId: string, argv: string[], cwd: string, options: StartOptions = {}) {
  return {
    processId,
    argv,
    cwd: options.cwd ?? cwd,
    env: options.env ?? { PATH: '/usr/bin:/bin' },
    tty: options.tty ?? false,
    pipeStdin: options.pipeStdin ?? false,
    arg0: options.arg0 ?? null,
    ...options.extra,
  };
}

export const sh = (script: string): string[] => ['/bin/sh', '-c', script];

/** What a finished process produced, in a form independent of how output was chunked. */
export interface ProcessOutcome {
  stdout: string;
  stderr: string;
  pty: string;
  exitCode: unknown;
}

/** The same, with each stream's exact bytes. */
export interface ProcessBytes {
  stdout: Buffer;
  stderr: Buffer;
  pty: Buffer;
  exitCode: unknown;
}

/**
 * Waits for `process/closed` of `processId` and every seq below it, then checks the notification
 * seqs (1..n, each once, closed last, exited before closed) and returns the output per stream.
 * Seqs, not arrival order, are the contract: codex sends notifications from independent tasks, so
 * `closed` can overtake `exited` on the wire.
 */
export async function collectProcessBytes(peer: RpcPeer, processId: string): Promise<ProcessBytes> {
  const closed = await peer.notification('process/closed', (p) => p.processId === processId, PROCESS_WAIT_MS);
  for (let seq = 1; seq < Number(closed.params.seq); seq += 1) {
    await peer.waitFor(
      (m) => {
        const params = m.message.params as Record<string, unknown> | undefined;
        return (
          typeof m.message.method === 'string' &&
          m.message.method.startsWith('process/') &&
          params?.processId === processId &&
          params.seq === seq
        );
      },
      `process ${processId} notification seq ${seq} (closed is seq ${String(closed.params.seq)})`,
      PROCESS_WAIT_MS,
    );
  }
  const events = peer
    .notifications()
    .filter((n) => n.params.processId === processId && n.method.startsWith('process/'))
    .sort((a, b) => Number(a.params.seq) - Number(b.params.seq));
  const seqs = events.map((e) => Number(e.params.seq));
  const expected = seqs.map((_, i) => i + 1);
  if (JSON.stringify(seqs) !== JSON.stringify(expected)) {
    throw new Error(`process ${processId}: notification seqs ${seqs.join(',')} are not 1..${seqs.length}`);
  }
  const exited = events.filter((e) => e.method === 'process/exited');
  const last = events[events.length - 1];
  if (exited.length !== 1 || last?.method !== 'process/closed') {
    throw new Error(
      `process ${processId}: expected one exited and closed last, got ${events.map((e) => e.method)}`,
    );
  }
  // Streams are joined as bytes before any decoding, so a character split across chunks stays whole.
  const bytes = { stdout: [] as Buffer[], stderr: [] as Buffer[], pty: [] as Buffer[] };
  for (const e of events) {
    if (e.method !== 'process/output') continue;
    bytes[e.params.stream as keyof typeof bytes].push(Buffer.from(String(e.params.chunk), 'base64'));
  }
  return {
    stdout: Buffer.concat(bytes.stdout),
    stderr: Buffer.concat(bytes.stderr),
    pty: Buffer.concat(bytes.pty),
    exitCode: exited[0]?.params.exitCode,
  };
}

/** collectProcessBytes as transcript text (see bytesText). */
export async function collectProcess(peer: RpcPeer, processId: string): Promise<ProcessOutcome> {
  const { stdout, stderr, pty, exitCode } = await collectProcessBytes(peer, processId);
  return { stdout: bytesText(stdout), stderr: bytesText(stderr), pty: bytesText(pty), exitCode };
}

/** A `process/read` result reduced to what does not depend on chunking. */
export function readSummary(result: Record<string, unknown>): Record<string, unknown> {
  const chunks = (result.chunks as Array<{ seq: number; stream: string; chunk: string }>) ?? [];
  const bytes: Record<string, Buffer[]> = {};
  for (const c of chunks) (bytes[c.stream] ??= []).push(Buffer.from(c.chunk, 'base64'));
  const streams = Object.fromEntries(
    Object.entries(bytes).map(([stream, list]) => [stream, bytesText(Buffer.concat(list))]),
  );
  const { chunks: _chunks, nextSeq: _nextSeq, ...flags } = result;
  return { streams, ...flags };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves true if a response to `id` arrives within `windowMs`, false otherwise. */
export async function answeredWithin(peer: RpcPeer, id: number | string, windowMs: number): Promise<boolean> {
  return peer.response(id, windowMs).then(
    () => true,
    () => false,
  );
}
