// A bare JSON-RPC-over-WebSocket connection to an exec-server, for chaos tests that exercise the
// servers' session resume and retention directly, without Tether's client in the way.
import WebSocket from 'ws';

const RAW_CONNECT_TIMEOUT_MS = 5_000;

export class RawRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

export class RawRpcClosedError extends Error {
  constructor(what: string) {
    super(`connection closed ${what}`);
  }
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class RawRpc {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private isClosed = false;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => this.receive(String(data)));
    ws.on('close', () => this.fail(new RawRpcClosedError('by the peer')));
    ws.on('error', () => undefined);
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<RawRpc> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers, handshakeTimeout: RAW_CONNECT_TIMEOUT_MS, maxPayload: 0 });
      ws.once('open', () => resolve(new RawRpc(ws)));
      ws.once('error', (error) => {
        ws.terminate();
        reject(error);
      });
    });
  }

  get closed(): boolean {
    return this.isClosed;
  }

  call(method: string, params: unknown, timeoutMs: number): Promise<unknown> {
    if (this.isClosed) return Promise.reject(new RawRpcClosedError(`before ${method}`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // A call that never answers means a dead link: drop it, as a real client would.
        this.pending.delete(id);
        reject(new RawRpcClosedError(`after ${method} got no answer in ${timeoutMs} ms`));
        this.close();
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  notify(method: string, params: unknown): void {
    if (!this.isClosed) this.ws.send(JSON.stringify({ method, params }));
  }

  close(): void {
    this.ws.terminate();
    this.fail(new RawRpcClosedError('locally'));
  }

  private receive(text: string): void {
    const message = JSON.parse(text) as {
      id?: number;
      result?: unknown;
      error?: { code: number; message: string };
    };
    if (typeof message.id !== 'number') return;
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    clearTimeout(pending.timer);
    if (message.error) pending.reject(new RawRpcError(message.error.code, message.error.message));
    else pending.resolve(message.result);
  }

  private fail(error: Error): void {
    this.isClosed = true;
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.pending.clear();
  }
}
