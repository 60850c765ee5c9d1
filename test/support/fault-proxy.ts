// A real TCP proxy on 127.0.0.1 that plays a bad network on demand for tests: abrupt cuts (RST),
// silent stalls, per-direction latency and throttling, refused connections. Bytes are never dropped
// or reordered except by an explicit cut; the proxy holds no randomness, so tests stay reproducible.
import net from 'node:net';

/** How many bytes a direction may hold in its queue before the proxy stops reading its source. */
export const PIPE_HIGH_WATER_BYTES = 1024 * 1024;
/** Throttled sends are paced in slices of this much time, so a slow rate still flows smoothly. */
const THROTTLE_SLICE_MS = 20;

export type Direction = 'upstream' | 'downstream' | 'both';

export interface FaultProxyOptions {
  target: { host: string; port: number };
  /**
   * Bytes a direction may hold before it stops reading (default PIPE_HIGH_WATER_BYTES). With
   * latency, this caps a connection at about highWater / one-way delay: a benchmark that plays a
   * long fast link raises it, so the proxy is not the narrowest window on the path.
   */
  pipeHighWaterBytes?: number;
}

export interface FaultProxyStats {
  /** Connections accepted and forwarded since start. */
  connections: number;
  /** Connections currently open. */
  open: number;
  /** Connections turned away by refuseNew(true). */
  refused: number;
  /** Connections ended by cutAll(). */
  cut: number;
  /** Bytes forwarded client → server. */
  bytesUpstream: number;
  /** Bytes forwarded server → client. */
  bytesDownstream: number;
  /** Bytes read but not yet forwarded (held by latency, throttle or stall), over all connections. */
  heldBytes: number;
}

/** How many incoming connection times arrivals() keeps (the oldest are dropped beyond it). */
const ARRIVALS_KEPT = 100_000;

interface Shaping {
  latencyMs: number;
  bytesPerSecond: number | null;
}

type QueueItem = { data: Buffer; arrivedAt: number } | { end: true; arrivedAt: number };

/** One direction of one proxied connection: a FIFO of chunks released under the current shaping. */
class Pipe {
  private readonly queue: QueueItem[] = [];
  /** Bytes read from the source and not yet written to the sink. */
  queuedBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private waitingForDrain = false;
  private nextSendAt = 0;
  private disposed = false;

  constructor(
    private readonly source: net.Socket,
    private readonly sink: net.Socket,
    private readonly shaping: () => Shaping,
    private readonly stalled: () => boolean,
    private readonly onForwarded: (bytes: number) => void,
    private readonly highWaterBytes: number,
  ) {
    source.on('data', (data: Buffer) => {
      this.queue.push({ data, arrivedAt: performance.now() });
      this.queuedBytes += data.length;
      if (this.queuedBytes >= this.highWaterBytes) source.pause();
      this.pump();
    });
    source.on('end', () => {
      this.queue.push({ end: true, arrivedAt: performance.now() });
      this.pump();
    });
    sink.on('drain', () => {
      this.waitingForDrain = false;
      this.pump();
    });
  }

  /** Forwards whatever the current shaping allows now, and schedules the rest. */
  pump(): void {
    if (this.disposed || this.timer || this.waitingForDrain || this.stalled()) return;
    for (let head = this.queue[0]; head !== undefined; head = this.queue[0]) {
      const { latencyMs, bytesPerSecond } = this.shaping();
      const now = performance.now();
      const releaseAt = Math.max(head.arrivedAt + latencyMs, bytesPerSecond === null ? 0 : this.nextSendAt);
      if (releaseAt > now) {
        this.schedule(releaseAt - now);
        return;
      }
      if ('end' in head) {
        this.queue.shift();
        this.sink.end();
        return;
      }
      let chunk = head.data;
      if (bytesPerSecond !== null) {
        const slice = Math.max(1, Math.floor((bytesPerSecond * THROTTLE_SLICE_MS) / 1000));
        if (chunk.length > slice) {
          head.data = chunk.subarray(slice);
          chunk = chunk.subarray(0, slice);
        } else {
          this.queue.shift();
        }
        this.nextSendAt = Math.max(now, this.nextSendAt) + (chunk.length * 1000) / bytesPerSecond;
      } else {
        this.queue.shift();
      }
      this.queuedBytes -= chunk.length;
      if (this.queuedBytes < this.highWaterBytes && this.source.isPaused()) this.source.resume();
      this.onForwarded(chunk.length);
      if (!this.sink.write(chunk)) {
        this.waitingForDrain = true;
        return;
      }
    }
  }

  /** Shaping changed: re-evaluate the head of the queue against the new rules. */
  reshape(): void {
    this.clearTimer();
    if (this.shaping().bytesPerSecond === null) this.nextSendAt = 0;
    this.pump();
  }

  dispose(): void {
    this.disposed = true;
    this.clearTimer();
    this.queue.length = 0;
    this.queuedBytes = 0;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.pump();
      },
      Math.max(1, Math.ceil(delayMs)),
    );
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** One accepted client socket and its upstream socket to the target. */
class ProxiedConnection {
  readonly up: Pipe;
  readonly down: Pipe;
  /** Held silent on its own (a black-holed flow), whatever the proxy-wide stall says. */
  blackholed = false;
  private finished = false;

  constructor(
    readonly client: net.Socket,
    readonly upstream: net.Socket,
    proxy: {
      shaping: (d: 'upstream' | 'downstream') => Shaping;
      stalled: () => boolean;
      highWaterBytes: number;
    },
    stats: FaultProxyStats,
    private readonly onFinished: (connection: ProxiedConnection) => void,
  ) {
    const stalled = () => this.blackholed || proxy.stalled();
    this.up = new Pipe(
      client,
      upstream,
      () => proxy.shaping('upstream'),
      stalled,
      (n) => (stats.bytesUpstream += n),
      proxy.highWaterBytes,
    );
    this.down = new Pipe(
      upstream,
      client,
      () => proxy.shaping('downstream'),
      stalled,
      (n) => (stats.bytesDownstream += n),
      proxy.highWaterBytes,
    );
    // An error or an abrupt close on one side is passed on abruptly to the other side.
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      socket.on('error', () => this.reset());
      socket.on('close', (hadError) => {
        if (hadError || !socket.readableEnded) this.reset();
        else if (other.destroyed) this.finish();
      });
    }
  }

  heldBytes(): number {
    return this.up.queuedBytes + this.down.queuedBytes;
  }

  reshape(): void {
    this.up.reshape();
    this.down.reshape();
  }

  /** Ends both sides abruptly: RST where the platform allows it. */
  reset(): void {
    if (this.finished) return;
    for (const socket of [this.client, this.upstream]) {
      if (!socket.destroyed) {
        if (socket.readyState === 'opening') socket.destroy();
        else socket.resetAndDestroy();
      }
    }
    this.finish();
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.up.dispose();
    this.down.dispose();
    this.onFinished(this);
  }
}

export class FaultProxy {
  private readonly connections = new Set<ProxiedConnection>();
  private readonly shapingByDirection: Record<'upstream' | 'downstream', Shaping> = {
    upstream: { latencyMs: 0, bytesPerSecond: null },
    downstream: { latencyMs: 0, bytesPerSecond: null },
  };
  private stalledNow = false;
  private refusing = false;
  /** Epoch ms of every incoming connection, forwarded or refused: the attempts a server sees. */
  private readonly arrivalTimes: number[] = [];
  private closed = false;
  private readonly counters: FaultProxyStats = {
    connections: 0,
    open: 0,
    refused: 0,
    cut: 0,
    bytesUpstream: 0,
    bytesDownstream: 0,
    heldBytes: 0,
  };

  /** The listening port on 127.0.0.1 (kept after close, so tests can check it refuses). */
  readonly port: number;

  private constructor(
    private readonly server: net.Server,
    private target: { host: string; port: number },
    readonly highWaterBytes: number,
  ) {
    this.port = (server.address() as net.AddressInfo).port;
    server.on('connection', (client) => this.accept(client));
  }

  /** Starts listening on an ephemeral port of 127.0.0.1 and forwards to `target`. */
  static async start(options: FaultProxyOptions): Promise<FaultProxy> {
    const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return new FaultProxy(server, options.target, options.pipeHighWaterBytes ?? PIPE_HIGH_WATER_BYTES);
  }

  /** Convenience for a proxy in front of a `ws://HOST:PORT` server. */
  static async forUrl(url: string, options: Omit<FaultProxyOptions, 'target'> = {}): Promise<FaultProxy> {
    const parsed = new URL(url);
    return FaultProxy.start({ ...options, target: { host: parsed.hostname, port: Number(parsed.port) } });
  }

  url(scheme = 'ws'): string {
    return `${scheme}://127.0.0.1:${this.port}`;
  }

  /** Destroys every live connection on both sides at once, with RST where possible. */
  cutAll(): number {
    const live = [...this.connections];
    for (const connection of live) connection.reset();
    this.counters.cut += live.length;
    return live.length;
  }

  /**
   * Holds connections silent in both directions; TCP stays up. 'all' (the default) holds existing
   * and new connections alike; 'existing' black-holes only the connections open now while new ones
   * pass, like a route change that strands old flows (the server keeps seeing them attached).
   */
  stall(scope: 'all' | 'existing' = 'all'): void {
    if (scope === 'all') this.stalledNow = true;
    else for (const connection of this.connections) connection.blackholed = true;
  }

  /** Delays every chunk by `ms` in the given direction(s), keeping order. */
  setLatency(ms: number, direction: Direction = 'both'): void {
    for (const d of directions(direction)) this.shapingByDirection[d].latencyMs = Math.max(0, ms);
    this.reshapeAll();
  }

  /** Limits the rate in the given direction(s); null removes the limit. */
  throttle(bytesPerSecond: number | null, direction: Direction = 'both'): void {
    if (bytesPerSecond !== null && !(bytesPerSecond > 0)) {
      throw new RangeError(`throttle needs a positive rate or null, got ${bytesPerSecond}`);
    }
    for (const d of directions(direction)) this.shapingByDirection[d].bytesPerSecond = bytesPerSecond;
    this.reshapeAll();
  }

  /** While true, new connections are reset at once (existing ones are untouched). */
  refuseNew(refuse: boolean): void {
    this.refusing = refuse;
  }

  /**
   * Sends new connections to another server from now on (existing ones stay where they are):
   * the same address answering as someone else, like a hijacked route or a replaced host.
   */
  retarget(target: { host: string; port: number }): void {
    this.target = { ...target };
  }

  /** Back to a clean network: no stall, latency, throttle or refusal. Held bytes flow on in order. */
  restore(): void {
    this.stalledNow = false;
    this.refusing = false;
    for (const connection of this.connections) connection.blackholed = false;
    for (const d of directions('both')) this.shapingByDirection[d] = { latencyMs: 0, bytesPerSecond: null };
    this.reshapeAll();
  }

  /** Epoch ms of each incoming connection (forwarded or refused) since start, oldest first. */
  arrivals(): readonly number[] {
    return this.arrivalTimes;
  }

  stats(): FaultProxyStats {
    let heldBytes = 0;
    for (const connection of this.connections) heldBytes += connection.heldBytes();
    return { ...this.counters, open: this.connections.size, heldBytes };
  }

  /** Stops listening, resets every connection and clears every timer. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const serverClosed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const connection of [...this.connections]) connection.reset();
    await serverClosed;
  }

  private accept(client: net.Socket): void {
    this.arrivalTimes.push(Date.now());
    if (this.arrivalTimes.length > ARRIVALS_KEPT) this.arrivalTimes.shift();
    if (this.refusing || this.closed) {
      this.counters.refused += 1;
      client.on('error', () => undefined);
      client.resetAndDestroy();
      return;
    }
    this.counters.connections += 1;
    const upstream = net.connect({ host: this.target.host, port: this.target.port, allowHalfOpen: true });
    const connection = new ProxiedConnection(
      client,
      upstream,
      {
        shaping: (d) => this.shapingByDirection[d],
        stalled: () => this.stalledNow,
        highWaterBytes: this.highWaterBytes,
      },
      this.counters,
      (c) => this.connections.delete(c),
    );
    this.connections.add(connection);
    client.resume();
  }

  private reshapeAll(): void {
    for (const connection of this.connections) connection.reshape();
  }
}

function directions(direction: Direction): Array<'upstream' | 'downstream'> {
  return direction === 'both' ? ['upstream', 'downstream'] : [direction];
}
