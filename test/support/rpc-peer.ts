// A raw JSON-RPC test peer for exec-servers: sends exactly the frames a test chooses (over ws or a
// stdio server's pipes), records every inbound message with its arrival time, and offers bounded
// waits for responses, notifications and the connection being dropped. Not the product client.
// It is the one raw client of the suites: conformance, the server's integration tests and the
// chaos suite's bare resume all speak through it.
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import WebSocket from 'ws';

/** Upper bound for any single wait of the peer unless the caller passes its own: generous, because
 * several test files share two cores and a loaded Node server can take seconds to answer. */
const DEFAULT_WAIT_MS = 30_000;

export type RpcId = number | string;

interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

/** A parsed inbound message; `raw` keeps the exact text the server sent. */
export interface InboundMessage {
  at: number;
  raw: string;
  message: Record<string, unknown>;
}

export interface RpcResponse {
  id: RpcId;
  /** Every exec-server result is an object. */
  result?: Record<string, unknown>;
  error?: RpcErrorBody;
}

export interface RpcNotification {
  method: string;
  params: Record<string, unknown>;
}

/** How the connection ended: a ws close code (1006 = dropped without a close frame) or stdio EOF. */
export interface PeerClose {
  code: number | null;
  at: number;
}

export interface WsConnectOptions {
  headers?: Record<string, string>;
  /** Sent as the `Origin` header only when given. */
  origin?: string;
  timeoutMs?: number;
}

/** A refused WebSocket upgrade: the HTTP answer the server gave instead. */
export class UpgradeRefusedError extends Error {
  readonly code = 'UPGRADE_REFUSED';
  constructor(
    readonly status: number,
    readonly headers: Record<string, string | string[] | undefined>,
    readonly body: string,
  ) {
    super(`websocket upgrade refused with HTTP ${status}: ${body}`);
  }
}

/** A call answered with an error. */
export class RpcCallError extends Error {
  readonly code: number;
  constructor(
    method: string,
    readonly error: RpcErrorBody,
  ) {
    super(`${method} failed: ${error.code} ${error.message}`);
    this.code = error.code;
  }
}

export class PeerTimeoutError extends Error {
  readonly code = 'PEER_TIMEOUT';
  constructor(what: string, timeoutMs: number, recent: InboundMessage[]) {
    const tail = recent
      .slice(-5)
      .map((m) => m.raw.slice(0, 300))
      .join('\n  ');
    super(`timed out after ${timeoutMs} ms waiting for ${what}; last inbound messages:\n  ${tail}`);
  }
}

/** The connection ended while a message was still awaited. */
export class PeerClosedError extends Error {
  readonly code = 'PEER_CLOSED';
  constructor(what: string, close: PeerClose) {
    super(`connection closed (code ${close.code}) while waiting for ${what}`);
  }
}

interface Waiter {
  offer: (event: InboundMessage | 'close') => boolean;
}

export class RpcPeer {
  readonly inbound: InboundMessage[] = [];
  /** Inbound text that was not a JSON object (kept so tests can assert on it). */
  readonly unparsed: string[] = [];
  private nextId = 1;
  private closeInfo: PeerClose | undefined;
  private readonly waiters = new Set<Waiter>();

  private constructor(
    private readonly writeText: (text: string) => void,
    private readonly writeBytes: (bytes: Buffer) => void,
    private readonly shutdown: () => void,
    private readonly abort: () => void,
  ) {}

  /** Opens a WebSocket to `url`. Rejects with UpgradeRefusedError when the server answers HTTP. */
  static connectWs(url: string, options: WsConnectOptions = {}): Promise<RpcPeer> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
    const ws = new WebSocket(url, {
      headers: options.headers,
      ...(options.origin !== undefined ? { origin: options.origin } : {}),
      handshakeTimeout: timeoutMs,
      maxPayload: 0,
      perMessageDeflate: false,
    });
    const peer = new RpcPeer(
      (text) => ws.send(text),
      (bytes) => ws.send(bytes, { binary: true }),
      () => ws.close(1000),
      () => ws.terminate(),
    );
    ws.on('message', (data: WebSocket.RawData) => {
      peer.receive(
        Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString(),
      );
    });
    ws.on('close', (code) => peer.markClosed(code));
    return new Promise((resolve, reject) => {
      ws.once('open', () => {
        // A reset (a cut link) reports an error before the close; the close is what is recorded.
        ws.on('error', () => undefined);
        resolve(peer);
      });
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => {
          ws.terminate();
          reject(new UpgradeRefusedError(res.statusCode ?? 0, res.headers, body));
        });
      });
      ws.once('error', (error) => reject(error));
    });
  }

  /** Speaks newline-delimited JSON over the pipes of a started stdio server. */
  static overStdio(child: ChildProcess): RpcPeer {
    const stdin = child.stdin;
    const stdout = child.stdout;
    if (!stdin || !stdout) throw new Error('stdio peer needs a child started with piped stdin/stdout');
    return RpcPeer.overStreams(stdin, stdout);
  }

  /** JSON lines written to `input` and read from `output` (a child's stdio, or pipes of one). */
  static overStreams(input: Writable, output: Readable): RpcPeer {
    const peer = new RpcPeer(
      (text) => input.write(`${text}\n`),
      (bytes) => input.write(bytes),
      () => input.end(),
      () => input.end(),
    );
    let pending = '';
    output.setEncoding('utf8');
    output.on('data', (data: string) => {
      pending += data;
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        if (line.trim() !== '') peer.receive(line);
        newline = pending.indexOf('\n');
      }
    });
    output.once('close', () => peer.markClosed(null));
    input.on('error', () => undefined);
    return peer;
  }

  /** Sends one message as it is: one ws text frame, or one stdio line. */
  sendText(text: string): void {
    this.writeText(text);
  }

  /** Sends bytes as they are: one ws binary frame, or raw bytes on stdin (no newline added). */
  sendBytes(bytes: Buffer): void {
    this.writeBytes(bytes);
  }

  send(message: unknown): void {
    this.writeText(JSON.stringify(message));
  }

  notify(method: string, params?: unknown): void {
    this.send(params === undefined ? { method } : { method, params });
  }

  /** Sends a request (with `id`, or the next numeric id) and returns the id used. */
  sendRequest(method: string, params?: unknown, id?: RpcId): RpcId {
    const requestId = id ?? this.nextId++;
    this.send(params === undefined ? { id: requestId, method } : { id: requestId, method, params });
    return requestId;
  }

  /** Sends a request and waits for its response (result or error). */
  request(
    method: string,
    params?: unknown,
    options: { id?: RpcId; timeoutMs?: number } = {},
  ): Promise<RpcResponse> {
    const id = this.sendRequest(method, params, options.id);
    return this.response(id, options.timeoutMs);
  }

  /** Like `request`, but fails unless the response is a success; returns its result. */
  async call<T = Record<string, unknown>>(method: string, params?: unknown, timeoutMs?: number): Promise<T> {
    const response = await this.request(method, params, { timeoutMs });
    if (response.error) throw new RpcCallError(method, response.error);
    return response.result as T;
  }

  /** initialize + initialized; returns the initialize result. */
  async handshake(resumeSessionId?: string): Promise<{ sessionId: string; environmentInfo?: unknown }> {
    const result = await this.call<{ sessionId: string; environmentInfo?: unknown }>('initialize', {
      clientName: 'tether-conformance',
      resumeSessionId: resumeSessionId ?? null,
    });
    this.notify('initialized', {});
    return result;
  }

  /** Waits for the response carrying `id` (compared with its JSON type, so 1 and "1" differ). */
  async response(id: RpcId, timeoutMs = DEFAULT_WAIT_MS): Promise<RpcResponse> {
    const found = await this.waitFor(
      (m) => 'id' in m.message && m.message.id === id && !('method' in m.message),
      `response to id ${JSON.stringify(id)}`,
      timeoutMs,
    );
    return found.message as unknown as RpcResponse;
  }

  /** Waits for the first inbound message (already received or future) matching `predicate`. */
  waitFor(
    predicate: (message: InboundMessage) => boolean,
    what = 'a matching message',
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<InboundMessage> {
    const seen = this.inbound.find(predicate);
    if (seen) return Promise.resolve(seen);
    if (this.closeInfo) return Promise.reject(new PeerClosedError(what, this.closeInfo));
    return this.wait(
      (event) => {
        if (event === 'close') throw new PeerClosedError(what, this.closeInfo as PeerClose);
        return predicate(event) ? event : undefined;
      },
      what,
      timeoutMs,
    );
  }

  /** Waits for the inbound message at position `index` of `inbound` (the next one after a send). */
  messageAt(index: number, timeoutMs = DEFAULT_WAIT_MS): Promise<InboundMessage> {
    return this.waitFor((m) => this.inbound.indexOf(m) === index, `inbound message #${index}`, timeoutMs);
  }

  /** Waits for a notification of `method` whose params satisfy `predicate`. */
  async notification(
    method: string,
    predicate: (params: Record<string, unknown>) => boolean = () => true,
    timeoutMs = DEFAULT_WAIT_MS,
  ): Promise<RpcNotification> {
    const found = await this.waitFor(
      (m) => m.message.method === method && !('id' in m.message) && predicate(paramsOf(m)),
      `notification ${method}`,
      timeoutMs,
    );
    return { method, params: paramsOf(found) };
  }

  /** Every notification received so far, optionally only those of `method`. */
  notifications(method?: string): RpcNotification[] {
    return this.inbound
      .filter((m) => typeof m.message.method === 'string' && !('id' in m.message))
      .filter((m) => method === undefined || m.message.method === method)
      .map((m) => ({ method: m.message.method as string, params: paramsOf(m) }));
  }

  /** The output of `processId` pushed so far (`process/output` notifications), decoded. */
  outputOf(processId: string): string {
    return Buffer.concat(
      this.notifications('process/output')
        .filter((n) => n.params.processId === processId)
        .map((n) => Buffer.from(n.params.chunk as string, 'base64')),
    ).toString();
  }

  /** Whether a `process/closed` notification for `processId` has arrived. */
  hasClosed(processId: string): boolean {
    return this.notifications('process/closed').some((n) => n.params.processId === processId);
  }

  /** Every response received so far (messages with an id and no method). */
  responses(): RpcResponse[] {
    return this.inbound
      .filter((m) => 'id' in m.message && !('method' in m.message))
      .map((m) => m.message as unknown as RpcResponse);
  }

  /** Resolves once the server closes or drops the connection. */
  waitForClose(timeoutMs = DEFAULT_WAIT_MS): Promise<PeerClose> {
    if (this.closeInfo) return Promise.resolve(this.closeInfo);
    return this.wait(() => this.closeInfo, 'the connection to close', timeoutMs);
  }

  get isClosed(): boolean {
    return this.closeInfo !== undefined;
  }

  /** Closes our side (ws close frame, or stdin EOF) and waits until the connection is gone. */
  async close(timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
    if (this.closeInfo) return;
    this.shutdown();
    await this.waitForClose(timeoutMs);
  }

  /** Ends the connection at once, without a close handshake (ws terminate, or stdin EOF), as a dead
   * link would; the close is recorded when the socket reports it. */
  drop(): void {
    this.abort();
  }

  /** Offers every later inbound message (and the close) to `probe` until it yields a value. */
  private wait<T>(
    probe: (event: InboundMessage | 'close') => T | undefined,
    what: string,
    timeoutMs: number,
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        offer: (event) => {
          let value: T | undefined;
          try {
            value = probe(event);
          } catch (error) {
            clearTimeout(timer);
            reject(error);
            return true;
          }
          if (value === undefined) return false;
          clearTimeout(timer);
          resolve(value);
          return true;
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new PeerTimeoutError(what, timeoutMs, this.inbound));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  private receive(raw: string): void {
    let message: unknown;
    try {
      message = JSON.parse(raw);
    } catch {
      this.unparsed.push(raw);
      return;
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) {
      this.unparsed.push(raw);
      return;
    }
    const inbound = { at: Date.now(), raw, message: message as Record<string, unknown> };
    this.inbound.push(inbound);
    this.offer(inbound);
  }

  private markClosed(code: number | null): void {
    if (this.closeInfo) return;
    this.closeInfo = { code, at: Date.now() };
    this.offer('close');
  }

  private offer(event: InboundMessage | 'close'): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.offer(event)) this.waiters.delete(waiter);
    }
  }
}

function paramsOf(message: InboundMessage): Record<string, unknown> {
  const params = message.message.params;
  return params !== null && typeof params === 'object' ? (params as Record<string, unknown>) : {};
}

/** `process/start` params for a `/bin/sh -c` script in /tmp with this process's PATH and piped stdin. */
export const shellStartParams = (processId: string, script: string) => ({
  processId,
  argv: ['/bin/sh', '-c', script],
  cwd: 'file:///tmp',
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  tty: false,
  pipeStdin: true,
});
