// Tether's web mode as the bench drives it: `tether web` started on 127.0.0.1 with a temp data dir
// (stopped by pid), and a minimal renderer stand-in speaking the web bridge (invoke/result/event)
// that acknowledges every output byte it receives, as a renderer that keeps up would.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { WEB_TOKEN_PARAM, decodeWebMessage, webSocketUrlFor } from '../../../shared/ipc';
import { firstLine, startHelper, withTimeout, type Helper } from './child';
import { BENCH_GC_DONE_LINE } from '../../../electron/web/bench-gc';
import { TETHER_BIN } from '../../support/exec-servers';

/** How long one bridge call may take. */
const INVOKE_TIMEOUT_MS = 30_000;

export interface WebApp {
  /** The login URL `tether web` printed (its token included). */
  url: string;
  pid: number;
  commandLine: string;
  /** Runs a full GC in the app process (only when started with `gc`); its memory figures after it. */
  collectGarbage(): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<void>;
}

export interface WebAppOptions {
  /** The app's ~/.ssh/config (its HOME is then a temp folder inside the data dir). */
  sshConfig?: string;
  /** Start node with --expose-gc and the app's bench GC hook (SIGUSR2), for collectGarbage(). */
  gc?: boolean;
}

export async function startWebApp(options: WebAppOptions = {}): Promise<WebApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tether-bench-web-'));
  const args = [
    ...(options.gc ? ['--expose-gc'] : []),
    TETHER_BIN,
    'web',
    '--no-open',
    '--port',
    '0',
    '--data-dir',
    dataDir,
  ];
  let env: NodeJS.ProcessEnv | undefined;
  if (options.gc) env = { ...process.env, TETHER_BENCH_GC: '1' };
  if (options.sshConfig !== undefined) {
    const home = path.join(dataDir, 'home');
    mkdirSync(path.join(home, '.ssh'), { recursive: true, mode: 0o700 });
    writeFileSync(path.join(home, '.ssh', 'config'), options.sshConfig, { mode: 0o600 });
    env = { ...(env ?? process.env), HOME: home };
  }
  const helper: Helper = startHelper(process.execPath, args, env ? { env } : {});
  const stop = async (): Promise<void> => {
    await helper.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await firstLine(helper);
    const collectGarbage = async (): Promise<NodeJS.MemoryUsage> => {
      if (!options.gc) throw new Error('collectGarbage needs startWebApp({ gc: true })');
      const stderr = helper.child.stderr!;
      let seen = '';
      const done = new Promise<NodeJS.MemoryUsage>((resolve) => {
        const onData = (chunk: Buffer): void => {
          seen = (seen + chunk.toString('utf8')).slice(-1_024);
          const match = new RegExp(`${BENCH_GC_DONE_LINE}(\\{.*\\})\n`).exec(seen);
          if (!match) return;
          stderr.off('data', onData);
          resolve(JSON.parse(match[1]!) as NodeJS.MemoryUsage);
        };
        stderr.on('data', onData);
      });
      helper.child.kill('SIGUSR2');
      return withTimeout(done, INVOKE_TIMEOUT_MS, 'the app collecting garbage');
    };
    return { url, pid: helper.pid, commandLine: ['node', ...args].join(' '), collectGarbage, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface ProcessViewLite {
  envId: string;
  processId: string;
  state: string;
}

/** A renderer stand-in on the web bridge: invokes commands, acknowledges all output. */
export class BridgeClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private readonly listeners = new Set<(name: string, payload: unknown) => void>();
  /** Output bytes received per `envId/processId`. */
  readonly outputBytes = new Map<string, number>();
  readonly processStates = new Map<string, string>();

  private constructor(private readonly ws: WebSocket) {
    // Process output arrives as binary messages (raw bytes), everything else as JSON text.
    ws.on('message', (data: Buffer, isBinary: boolean) =>
      this.receive(decodeWebMessage(isBinary ? data : data.toString('utf8')) as Record<string, unknown>),
    );
  }

  static async connect(pageUrl: string): Promise<BridgeClient> {
    const page = new URL(pageUrl);
    const token = page.searchParams.get(WEB_TOKEN_PARAM) ?? '';
    const ws = new WebSocket(webSocketUrlFor(page), {
      perMessageDeflate: false,
      headers: { authorization: `Bearer ${token}` },
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new BridgeClient(ws);
  }

  invoke<T = unknown>(name: string, input: unknown): Promise<T> {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ type: 'invoke', id, name, input }));
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${name} got no answer within ${INVOKE_TIMEOUT_MS} ms`));
      }, INVOKE_TIMEOUT_MS);
      this.pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
    });
  }

  onEvent(listener: (name: string, payload: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.ws.terminate();
  }

  private receive(message: Record<string, unknown>): void {
    if (message.type === 'result') {
      const waiter = this.pending.get(message.id as number);
      if (!waiter) return;
      this.pending.delete(message.id as number);
      if (message.ok) waiter.resolve(message.output);
      else waiter.reject(new Error(`bridge error: ${JSON.stringify(message.error)}`));
      return;
    }
    if (message.type !== 'event') return;
    const name = message.name as string;
    if (name === 'processes.events') this.acknowledge(message.payload as BatchLite[]);
    if (name === 'processes.changed') {
      const view = message.payload as ProcessViewLite;
      this.processStates.set(`${view.envId}/${view.processId}`, view.state);
    }
    for (const listener of this.listeners) listener(name, message.payload);
  }

  private acknowledge(batches: BatchLite[]): void {
    for (const batch of batches) {
      let bytes = 0;
      for (const event of batch.events) if (event.kind === 'output') bytes += event.data.byteLength;
      if (bytes === 0) continue;
      const key = `${batch.envId}/${batch.processId}`;
      this.outputBytes.set(key, (this.outputBytes.get(key) ?? 0) + bytes);
      this.invoke('processes.ack', {
        envId: batch.envId,
        processId: batch.processId,
        deltaBytes: bytes,
      }).catch(() => undefined);
    }
  }
}

interface BatchLite {
  envId: string;
  processId: string;
  events: Array<{ kind: string; data: Uint8Array }>;
}
