// A port forward's HTTP side against a codex server, which has no TCP streams: the local
// connections are parsed as HTTP/1.1 here (Node's http server, fed the accepted sockets) and each
// request goes to the host's port through codex's `http/request`, one at a time (codex serves one
// request of a connection at a time), its response streamed back. Only plain HTTP passes: a
// WebSocket (or any other upgrade) is answered with a page that says it is not available.
import * as http from 'node:http';
import type * as net from 'node:net';
import { ErrorCode, loopbackAddresses } from '../../../shared/protocol';
import { errorMessage } from '../../../shared/error-message';
import { ClientError, isClientError } from '../client-error';
import {
  HTTP_FORWARD_MAX_BODY_BYTES,
  HTTP_FORWARD_MAX_BUFFERED_BYTES,
  HTTP_FORWARD_MAX_QUEUED,
} from '../constants';
import { decodableCoding, headerPairs, requestHeadersToHost, responseHeadersToLocal } from './http-headers';
import type { HttpRequestSpec, HttpResponseHead, HttpResponseSink } from './http-requests';
import type { StreamTarget } from './stream-mux';

/** What the HTTP side needs of its client: http/request on the dedicated connection. */
export interface HttpRequester {
  httpRequest(spec: HttpRequestSpec, sink: HttpResponseSink, signal?: AbortSignal): Promise<void>;
}

export interface HttpForwardEvents {
  /** A request reached the host's port. */
  onConnected?(): void;
  /** A request could not be forwarded; `refused` when nothing answered on the host's port. */
  onConnectionError?(message: string, error: unknown, refused: boolean): void;
}

export const WEBSOCKETS_UNAVAILABLE =
  'WebSockets are not available through a codex server: a forward to it carries plain HTTP only ' +
  '(through its http/request). Run Tether’s own server on the host (an SSH environment installs it) ' +
  'to forward WebSockets and hot reload.';

/** Methods that change nothing on the target, so one may be tried on ::1 after 127.0.0.1 failed. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** How many body bytes tell whether a response still labelled gzip or zstd was decoded. */
const MAGIC_BYTES = 4;
const MiB = 1024 * 1024;

export class HttpForward {
  private readonly server: http.Server;
  private readonly waiting: Array<() => Promise<void>> = [];
  private busy = false;
  /** Index into the target's addresses of the one that answered last (localhost: 127.0.0.1 or ::1). */
  private answering = 0;

  constructor(
    private readonly requester: HttpRequester,
    private readonly target: StreamTarget,
    private readonly events: HttpForwardEvents,
  ) {
    this.server = http.createServer();
    this.server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => this.accept(req, res));
    this.server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket) =>
      this.refuseUpgrade(req, socket),
    );
    this.server.on('connect', (_req: http.IncomingMessage, socket: net.Socket) =>
      rawReply(socket, 405, 'A forward does not carry CONNECT (it is not a proxy).'),
    );
  }

  /** Requests waiting for their turn now. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** Serves HTTP on an accepted local socket (paused, as the forward's listener makes them). */
  serve(socket: net.Socket): void {
    this.server.emit('connection', socket);
    socket.resume();
  }

  private get where(): string {
    const { host, port } = this.target;
    return `${host.includes(':') ? `[${host}]` : host}:${port}`;
  }

  private accept(req: http.IncomingMessage, res: http.ServerResponse): void {
    res.on('error', () => undefined);
    if (!req.url?.startsWith('/')) {
      reply(res, 400, 'A forward takes requests for paths on its port (such as GET /), not proxy requests.');
      return;
    }
    const tooLarge = (): void => {
      res.setHeader('Connection', 'close');
      reply(
        res,
        413,
        `The request body is larger than ${HTTP_FORWARD_MAX_BODY_BYTES / MiB} MiB, the most a forward ` +
          'through a codex server carries (codex takes each body whole, in one message).',
      );
    };
    if (Number(req.headers['content-length'] ?? 0) > HTTP_FORWARD_MAX_BODY_BYTES) {
      tooLarge();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > HTTP_FORWARD_MAX_BODY_BYTES) {
        refused = true;
        chunks.length = 0;
        tooLarge();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused) return;
      const hasBody =
        size > 0 ||
        req.headers['content-length'] !== undefined ||
        req.headers['transfer-encoding'] !== undefined;
      this.enqueue(res, () => this.forward(req, res, hasBody ? Buffer.concat(chunks) : null));
    });
  }

  /** Runs `job` once the requests before it have their response heads; bounded. */
  private enqueue(res: http.ServerResponse, job: () => Promise<void>): void {
    if (this.waiting.length >= HTTP_FORWARD_MAX_QUEUED) {
      reply(
        res,
        503,
        `${HTTP_FORWARD_MAX_QUEUED} requests already wait for this forward (a codex server serves one at a ` +
          'time); try again shortly.',
      );
      return;
    }
    this.waiting.push(job);
    this.pump();
  }

  private pump(): void {
    if (this.busy) return;
    const job = this.waiting.shift();
    if (!job) return;
    this.busy = true;
    void job().finally(() => {
      this.busy = false;
      this.pump();
    });
  }

  private async forward(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    body: Buffer | null,
  ): Promise<void> {
    // The local client gave up while the request waited: nothing goes out for it.
    if (res.destroyed || res.writableEnded) return;
    const addresses = loopbackAddresses(this.target.host);
    if (!addresses) {
      const message = `${this.where} is not a loopback address of the host: a forward reaches only localhost, 127.0.0.0/8 and ::1 there.`;
      reply(res, 502, message);
      this.events.onConnectionError?.(`A request to ${this.where} was refused: ${message}`, null, false);
      return;
    }
    const spec = (address: string): HttpRequestSpec => ({
      method: req.method ?? 'GET',
      url: `http://${address.includes(':') ? `[${address}]` : address}:${this.target.port}${req.url}`,
      headers: requestHeadersToHost(headerPairs(req.rawHeaders)),
      body,
    });
    // The address that answered last goes first, the others after it (for safe methods only).
    const order = [this.answering, ...addresses.keys()].filter((i, at, all) => all.indexOf(i) === at);
    for (const [attempt, index] of order.entries()) {
      const sink = new LocalResponse(res, req.method === 'HEAD', (message) =>
        this.events.onConnectionError?.(`A response from ${this.where} was cut: ${message}`, null, false),
      );
      try {
        await this.requester.httpRequest(spec(addresses[index]!), sink);
        this.answering = index;
        this.events.onConnected?.();
        return;
      } catch (error) {
        const unreachable = couldNotConnect(error);
        const more = attempt + 1 < order.length && SAFE_METHODS.has(req.method ?? '');
        if (unreachable && more) continue;
        this.failed(res, error, unreachable);
        return;
      }
    }
  }

  private failed(res: http.ServerResponse, error: unknown, unreachable: boolean): void {
    let status = 502;
    let message: string;
    if (unreachable) {
      message = `Nothing answered at ${this.where} on the host: the codex server could not connect to it (${errorMessage(error)}). Is the program listening there?`;
    } else if (isClientError(error, 'timeout')) {
      status = 504;
      message = `${this.where} on the host sent no response headers in time (${errorMessage(error)}).`;
    } else {
      message = `The request could not be forwarded through the codex server: ${errorMessage(error)}`;
    }
    if (!res.headersSent) reply(res, status, message);
    else res.destroy();
    this.events.onConnectionError?.(`A request to ${this.where} failed: ${message}`, error, unreachable);
  }

  private refuseUpgrade(req: http.IncomingMessage, socket: net.Socket): void {
    const what = /websocket/i.test(req.headers.upgrade ?? '')
      ? 'WebSocket'
      : `${req.headers.upgrade} upgrade`;
    const message =
      what === 'WebSocket'
        ? WEBSOCKETS_UNAVAILABLE
        : `Protocol upgrades (${req.headers.upgrade}) are not available through a codex server: a forward to it carries plain HTTP only.`;
    rawReply(socket, 501, message);
    this.events.onConnectionError?.(
      `A ${what} to ${this.where}${req.url ?? ''} was refused: ${message}`,
      new ClientError('unsupported', message),
      false,
    );
  }
}

/** The codex server could not reach the target (nothing listens there, or it reset at once). */
function couldNotConnect(error: unknown): boolean {
  return (
    isClientError(error, 'rpc') &&
    error.rpc?.code === ErrorCode.internal &&
    /error sending request/.test(error.rpc.message)
  );
}

/** One response on its way to the local client, from the head http/request gave. */
class LocalResponse implements HttpResponseSink {
  private coding: string | null = null;
  /** Body bytes held back until they tell whether a still-labelled body was decoded. */
  private held: Buffer[] | null = null;
  private headers: HttpResponseHead | null = null;

  constructor(
    private readonly res: http.ServerResponse,
    private readonly headOnly: boolean,
    private readonly cut: (message: string) => void,
  ) {}

  head(head: HttpResponseHead): void {
    if (this.res.destroyed) return;
    if (head.status < 200) {
      // An upgrade was never asked for; a 1xx here has no meaning for the local client.
      reply(
        this.res,
        502,
        `The host answered ${head.status}, which a forward through a codex server cannot carry.`,
      );
      return;
    }
    this.coding = decodableCoding(head.headers);
    if (this.coding !== null && !this.headOnly) {
      this.headers = head;
      this.held = [];
      return;
    }
    this.writeHead(head, null);
  }

  data(bytes: Buffer): void {
    if (this.res.destroyed || this.res.writableEnded) return;
    if (this.held) {
      this.held.push(bytes);
      if (Buffer.concat(this.held).length >= MAGIC_BYTES) this.release();
      return;
    }
    try {
      this.res.write(bytes);
    } catch (error) {
      this.abort(errorMessage(error));
      return;
    }
    if (this.res.writableLength > HTTP_FORWARD_MAX_BUFFERED_BYTES) {
      this.abort(
        `the local client read too slowly (over ${HTTP_FORWARD_MAX_BUFFERED_BYTES / MiB} MiB waited for it)`,
      );
    }
  }

  end(error: string | null): void {
    if (this.res.destroyed || this.res.writableEnded) return;
    if (this.held) this.release();
    if (error !== null) {
      this.abort(error);
      return;
    }
    try {
      this.res.end();
    } catch (failure) {
      this.abort(errorMessage(failure));
    }
  }

  /** The held first bytes decide the labels; then they go out. */
  private release(): void {
    const first = Buffer.concat(this.held ?? []);
    this.held = null;
    if (!this.writeHead(this.headers!, first)) return;
    if (first.length > 0) this.data(first);
  }

  private writeHead(head: HttpResponseHead, firstBytes: Buffer | null): boolean {
    const headers = responseHeadersToLocal(head.headers, this.coding, firstBytes);
    try {
      this.res.writeHead(
        head.status,
        headers.flatMap(({ name, value }) => [name, value]),
      );
      return true;
    } catch (error) {
      reply(this.res, 502, `The host's response headers cannot be passed on: ${errorMessage(error)}`);
      return false;
    }
  }

  private abort(message: string): void {
    this.res.destroy();
    this.cut(message);
  }
}

/** A short plain-text answer from the forward itself. */
function reply(res: http.ServerResponse, status: number, message: string): void {
  if (res.headersSent || res.destroyed) return;
  const body = Buffer.from(`Tether: ${message}\n`);
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
}

/** The same, on a raw socket (an upgrade or CONNECT, which Node's response object does not serve). */
function rawReply(socket: net.Socket, status: number, message: string): void {
  const body = Buffer.from(`Tether: ${message}\n`);
  socket.on('error', () => undefined);
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.toString()}`,
  );
}
