// A minimal JSON-RPC client for the exec-server integration tests: speaks to a real
// `tether exec-server` over WebSocket or stdio and records every notification.
import type { ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import WebSocket from 'ws';

export interface RpcResponse {
  id: number | string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: { kind?: string } };
}

export interface RpcNotification {
  method: string;
  params: Record<string, unknown>;
}

const WAIT_TIMEOUT_MS = 15_000;

export class TestClient {
  readonly notifications: RpcNotification[] = [];
  private readonly pending = new Map<string, (response: RpcResponse) => void>();
  private readonly watchers = new Set<() => void>();
  private nextId = 1;
  closed = false;

  private constructor(
    private readonly sendText: (text: string) => void,
    private readonly closeFn: () => void,
  ) {}

  static async ws(url: string, headers: Record<string, string> = {}): Promise<TestClient> {
    const socket = new WebSocket(url, { headers });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const client = new TestClient(
      (text) => socket.send(text),
      () => socket.terminate(),
    );
    socket.on('message', (data) => client.receive(data.toString()));
    socket.on('close', () => client.markClosed());
    return client;
  }

  static stdio(child: ChildProcess): TestClient {
    const client = new TestClient(
      (text) => child.stdin!.write(`${text}\n`),
      () => child.stdin!.end(),
    );
    readline.createInterface({ input: child.stdout! }).on('line', (line) => client.receive(line));
    child.stdout!.on('close', () => client.markClosed());
    return client;
  }

  private markClosed(): void {
    this.closed = true;
    this.notifyWatchers();
  }

  private receive(text: string): void {
    const message = JSON.parse(text) as Partial<RpcResponse & RpcNotification>;
    if (message.method === undefined) {
      const response = message as RpcResponse;
      const key = JSON.stringify(response.id);
      this.pending.get(key)?.(response);
      this.pending.delete(key);
      this.responses.push(response);
    } else {
      this.notifications.push(message as RpcNotification);
    }
    this.notifyWatchers();
  }

  /** Every response received, including ones nobody awaited (e.g. id -1 parse errors). */
  readonly responses: RpcResponse[] = [];

  private notifyWatchers(): void {
    for (const watcher of [...this.watchers]) watcher();
  }

  sendRaw(text: string): void {
    this.sendText(text);
  }

  notify(method: string, params: unknown = {}): void {
    this.sendText(JSON.stringify({ method, params }));
  }

  request(method: string, params?: unknown, id: number | string = this.nextId++): Promise<RpcResponse> {
    return new Promise((resolve) => {
      this.pending.set(JSON.stringify(id), resolve);
      this.sendText(JSON.stringify(params === undefined ? { id, method } : { id, method, params }));
    });
  }

  /** Calls and returns the result, failing the test on an error response. */
  async call(method: string, params?: unknown): Promise<Record<string, unknown>> {
    const response = await this.request(method, params);
    if (response.error) throw new Error(`${method} failed: ${JSON.stringify(response.error)}`);
    return response.result!;
  }

  async handshake(resumeSessionId?: string): Promise<string> {
    const result = await this.call('initialize', { clientName: 'tether-test', resumeSessionId });
    this.notify('initialized');
    return result.sessionId as string;
  }

  /** Resolves once `predicate` holds (checked on every inbound message). */
  waitFor(predicate: () => boolean, what: string, timeoutMs = WAIT_TIMEOUT_MS): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.watchers.delete(check);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      const check = (): void => {
        if (!predicate()) return;
        clearTimeout(timer);
        this.watchers.delete(check);
        resolve();
      };
      this.watchers.add(check);
    });
  }

  outputOf(processId: string): string {
    return Buffer.concat(
      this.notifications
        .filter((n) => n.method === 'process/output' && n.params.processId === processId)
        .map((n) => Buffer.from(n.params.chunk as string, 'base64')),
    ).toString();
  }

  hasClosed(processId: string): boolean {
    return this.notifications.some((n) => n.method === 'process/closed' && n.params.processId === processId);
  }

  close(): void {
    this.closeFn();
  }
}

/** Polls `check` until it returns true. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** True while a process with this pid exists. */
