// One port forward: local listeners on loopback only (127.0.0.1 and ::1, one port number for both)
// whose every accepted socket is piped to a TCP port on the host through a stream (stream-mux.ts),
// or, against a codex server (no streams), served as HTTP through its http/request (http-forward.ts).
// The listeners stay bound through link drops: a connection accepted during an outage waits a
// bounded time for the session to resume, then is refused; stop() releases the port at once.
import * as net from 'node:net';
import { StreamErrorKind, type StreamOpenResult } from '../../../shared/protocol';
import { errorMessage } from '../../../shared/error-message';
import { ClientError, isClientError } from '../client-error';
import { FORWARD_LINK_WAIT_MS } from '../constants';
import { HttpForward, type HttpRequester } from './http-forward';
import type { StreamTarget } from './stream-mux';

/** How a server forwards: TCP streams (Tether's), or plain HTTP through http/request (codex's). */
export type ForwardingMode = 'streams' | 'http';

/** What a forward needs of its client (RemoteExecServerClient). */
export interface StreamPiper extends HttpRequester {
  pipeStream(socket: net.Socket, target: StreamTarget, signal?: AbortSignal): Promise<StreamOpenResult>;
  /**
   * How the server forwards, once the link is usable (waiting until `signal` aborts); rejects with
   * ClientError 'unsupported' when it offers neither streams nor http/request.
   */
  forwardingMode(signal?: AbortSignal): Promise<ForwardingMode>;
}

export interface PortForwardOptions {
  target: StreamTarget;
  /**
   * The local port: a number binds exactly that one (in use is an error) and 0 picks a free one;
   * absent, the target's number is taken when it is free and not below 1024, else a free one (a
   * remap, reported in `remapped`).
   */
  localPort?: number;
  /** How long a connection accepted during an outage waits for the link (FORWARD_LINK_WAIT_MS). */
  linkWaitMs?: number;
  /**
   * A connection (or, against codex, a request) that could not be forwarded: refused on the host
   * (`refused`: nothing listens there), no link in time, a WebSocket through a codex server.
   */
  onConnectionError?(message: string, error: unknown, refused: boolean): void;
  /** A connection (or request) reached the host's port. */
  onConnected?(): void;
}

/** Lowest port the same-number rule takes: below it a local bind needs privileges. */
const FIRST_UNPRIVILEGED_PORT = 1024;
/** Tries of a port free on 127.0.0.1 but taken on ::1 before giving up. */
const BIND_ATTEMPTS = 8;

export class PortForward {
  private readonly sockets = new Set<net.Socket>();
  private stopped = false;
  /** The HTTP side, made when the first connection finds a codex server. */
  private http: HttpForward | null = null;

  private constructor(
    private readonly piper: StreamPiper,
    private readonly options: PortForwardOptions,
    private readonly servers: net.Server[],
    /** The local port both listeners use. */
    readonly localPort: number,
  ) {
    for (const server of servers) server.on('connection', (socket) => this.accept(socket));
  }

  /** Binds the local listeners and starts forwarding. */
  static async start(piper: StreamPiper, options: PortForwardOptions): Promise<PortForward> {
    const wanted = options.localPort ?? sameNumber(options.target.port);
    const strict = options.localPort !== undefined && options.localPort !== 0;
    const { servers, port } = await bindLoopback(wanted, strict);
    return new PortForward(piper, options, servers, port);
  }

  get target(): StreamTarget {
    return this.options.target;
  }

  /** True when the local port is not the target's number (it was taken, or below 1024). */
  get remapped(): boolean {
    return this.localPort !== this.options.target.port;
  }

  /** Where it listens: `127.0.0.1:PORT`, and `[::1]:PORT` where this machine has IPv6. */
  get addresses(): string[] {
    return this.servers.map((server) => {
      const address = server.address() as net.AddressInfo;
      return address.family === 'IPv6'
        ? `[${address.address}]:${address.port}`
        : `${address.address}:${address.port}`;
    });
  }

  /** Accepted connections still open. */
  get connectionCount(): number {
    return this.sockets.size;
  }

  /** HTTP requests waiting for their turn (against a codex server; none with streams). */
  get waitingRequests(): number {
    return this.http?.waitingCount ?? 0;
  }

  /** Releases the port now and resets every connection it carries. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const closed = this.servers.map(
      (server) => new Promise<void>((resolve) => server.close(() => resolve())),
    );
    for (const socket of [...this.sockets]) socket.resetAndDestroy();
    await Promise.all(closed);
  }

  private accept(socket: net.Socket): void {
    if (this.stopped) {
      socket.resetAndDestroy();
      return;
    }
    this.sockets.add(socket);
    socket.setNoDelay(true);
    socket.once('close', () => this.sockets.delete(socket));
    // Errors are the stream's to report (a reset); the listener keeps none.
    socket.on('error', () => undefined);
    const wait = AbortSignal.timeout(this.options.linkWaitMs ?? FORWARD_LINK_WAIT_MS);
    const forwarded = async (): Promise<void> => {
      let mode: ForwardingMode;
      try {
        mode = await this.piper.forwardingMode(wait);
      } catch (error) {
        resetSocket(socket);
        throw error;
      }
      if (mode === 'http') {
        this.httpSide().serve(socket);
        return;
      }
      await this.piper.pipeStream(socket, this.options.target, wait);
      this.options.onConnected?.();
    };
    forwarded().catch((error: unknown) => {
      const timedOut = wait.aborted && (error as Error | null)?.name === 'TimeoutError';
      const message = timedOut
        ? `the link to the environment was not back within ${Math.round((this.options.linkWaitMs ?? FORWARD_LINK_WAIT_MS) / 1000)} s`
        : errorMessage(error);
      this.options.onConnectionError?.(
        `A connection to ${describeTarget(this.options.target)} was refused: ${message}`,
        error,
        refusedOnHost(error),
      );
    });
  }

  private httpSide(): HttpForward {
    this.http ??= new HttpForward(this.piper, this.options.target, {
      onConnected: () => this.options.onConnected?.(),
      onConnectionError: (message, error, refused) =>
        this.options.onConnectionError?.(message, error, refused),
    });
    return this.http;
  }
}

/** Whether the host refused a stream: nothing listens on its port. */
function refusedOnHost(error: unknown): boolean {
  if (!isClientError(error, 'rpc')) return false;
  const data = error.rpc?.data as { kind?: unknown } | undefined;
  return data?.kind === StreamErrorKind.refused;
}

/** A TCP reset for a connected socket; one never connected (or already gone) is just destroyed. */
function resetSocket(socket: net.Socket): void {
  if (socket.remoteAddress === undefined || socket.destroyed) socket.destroy();
  else socket.resetAndDestroy();
}

export function describeTarget(target: StreamTarget): string {
  return `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
}

function sameNumber(port: number): number {
  return port >= FIRST_UNPRIVILEGED_PORT ? port : 0;
}

/** Listens on 127.0.0.1 and ::1 on one port number; ::1 is skipped where the machine has no IPv6. */
async function bindLoopback(
  wanted: number,
  strict: boolean,
): Promise<{ servers: net.Server[]; port: number }> {
  let port = wanted;
  for (let attempt = 0; attempt < BIND_ATTEMPTS; attempt++) {
    const v4 = newServer();
    try {
      await listen(v4, '127.0.0.1', port);
    } catch (error) {
      if (!inUse(error) || strict || port === 0) throw bindError(port, error);
      port = 0;
      continue;
    }
    const bound = (v4.address() as net.AddressInfo).port;
    const v6 = newServer();
    try {
      await listen(v6, '::1', bound);
      return { servers: [v4, v6], port: bound };
    } catch (error) {
      if (noIpv6(error)) return { servers: [v4], port: bound };
      v4.close();
      if (!inUse(error) || strict) throw bindError(bound, error);
      port = 0;
    }
  }
  throw new ClientError('transport', 'No local port was free on both 127.0.0.1 and ::1.');
}

function newServer(): net.Server {
  // Paused until the stream is open: nothing is read that could not be sent on.
  return net.createServer({ allowHalfOpen: true, pauseOnConnect: true });
}

function listen(server: net.Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function inUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
}

function noIpv6(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT';
}

function bindError(port: number, error: unknown): ClientError {
  if (inUse(error)) {
    return new ClientError('invalidArgument', `Local port ${port} is in use; pick another (or 0 for any).`);
  }
  return new ClientError('transport', `Could not listen on local port ${port}: ${errorMessage(error)}`);
}
