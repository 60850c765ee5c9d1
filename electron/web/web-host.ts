// The web host: serves the renderer and the IPC contract over a WebSocket on loopback only, all under
// an unguessable path scope (remembered across restarts). A browser logs in once (the printed token,
// or a one-time code) and gets a cookie bound to that scope; programs send `Authorization: Bearer`. Upgrades from a
// foreign Origin and requests for a foreign Host are refused. Malformed messages get a typed error
// and never take the host down.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { type AppService } from '../app/app-service';
import { dispatch } from '../app/handlers/dispatcher';
import {
  WEB_CODE_PARAM,
  WEB_DOWNLOAD_NAME,
  WEB_SOCKET_NAME,
  WEB_TOKEN_PARAM,
  WebInvokeMessage,
  decodeWebMessage,
  encodeWebMessage,
} from '../../shared/ipc';
import { plain, serveStatic } from './static-files';
import type { WebCredentials } from './web-credentials';
import type { WebDownloads } from './web-downloads';
import { contentSecurityPolicy } from '../../shared/content-security-policy';
import { errorMessage } from '../../shared/error-message';

/** Largest inbound WebSocket message: an upload chunk (2 MB of base64) plus framing. */
const MAX_MESSAGE_BYTES = 4 * 1_048_576;

export interface WebHostOptions {
  service: AppService;
  downloads: WebDownloads;
  /** Folder with the built renderer (index.html). */
  staticDir: string;
  host: string;
  port: number;
  credentials: WebCredentials;
}

export interface WebHost {
  /** http://HOST:PORT/<scope>/?token=… — the reusable login URL `tether web` prints. */
  readonly url: string;
  /** http://HOST:PORT/<scope>/ — the app's page, without any credential. */
  readonly pageUrl: string;
  readonly port: number;
  /**
   * A login URL with a fresh one-time code instead of the token (for the browser opener); `onSpent`
   * runs once the code is used, expired or the host closed.
   */
  oneTimeUrl(onSpent?: () => void): string;
  close(): Promise<void>;
}

/** The web host could not listen (the port is taken, or not ours to use). */
export class WebHostListenError extends Error {
  readonly code = 'webHostListen';
  constructor(
    readonly reason: 'inUse' | 'denied' | 'other',
    message: string,
  ) {
    super(message);
    this.name = 'WebHostListenError';
  }
}

const UNAUTHORIZED = 'Unauthorized: open the URL Tether printed when it started (it logs this browser in).';

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const { service, downloads, credentials } = options;
  const { scope } = credentials;
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  let origins: Set<string> = new Set();
  let csp = '';

  const server = http.createServer((request, response) => {
    void handleHttp(request, response).catch(() => {
      if (!response.headersSent) plain(response, 500, 'Internal error.');
      else response.destroy();
    });
  });

  async function handleHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://placeholder');
    if (!hostAllowed(request)) return plain(response, 403, 'Forbidden host.');
    if (!url.pathname.startsWith(scope)) return plain(response, 401, UNAUTHORIZED);
    const method = request.method;
    if (method !== 'GET' && method !== 'HEAD') return plain(response, 405, 'Method not allowed.');
    if (url.searchParams.has(WEB_TOKEN_PARAM) || url.searchParams.has(WEB_CODE_PARAM)) {
      return logIn(url, method, response);
    }
    if (!credentials.authenticates(request)) return plain(response, 401, UNAUTHORIZED);
    const relative = url.pathname.slice(scope.length);
    if (relative.startsWith(WEB_DOWNLOAD_NAME)) {
      const id = relative.slice(WEB_DOWNLOAD_NAME.length);
      if (!downloads.serve(id, method, response))
        plain(response, 404, 'This download link was already used or has expired.');
      return;
    }
    await serveStatic(options.staticDir, `/${relative}`, response, csp);
  }

  /**
   * Trades the printed token or a one-time code for the scoped cookie, then redirects to the same
   * page without it, so no credential stays in the address bar or the page's own URL. Only a GET
   * uses up a code.
   */
  function logIn(url: URL, method: 'GET' | 'HEAD', response: ServerResponse): void {
    const valid =
      credentials.isToken(url.searchParams.get(WEB_TOKEN_PARAM)) ||
      (method === 'GET' && credentials.redeemCode(url.searchParams.get(WEB_CODE_PARAM)));
    if (!valid) return plain(response, 401, UNAUTHORIZED);
    url.searchParams.delete(WEB_TOKEN_PARAM);
    url.searchParams.delete(WEB_CODE_PARAM);
    response.writeHead(303, {
      'set-cookie': credentials.cookie(),
      location: `${url.pathname}${url.search}`,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    response.end();
  }

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://placeholder');
    const refuse = (status: number, text: string): void => {
      socket.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${text}\n`,
      );
    };
    if (!hostAllowed(request)) return refuse(403, 'Forbidden host.');
    const origin = request.headers.origin;
    if (origin !== undefined && !origins.has(origin)) return refuse(403, 'Forbidden origin.');
    // The cookie (browsers) or a bearer header (programs): never a token in the URL.
    if (!credentials.authenticates(request)) {
      return refuse(
        401,
        'Unauthorized: log in through the URL Tether printed, or send the token as a bearer.',
      );
    }
    if (url.pathname !== `${scope}${WEB_SOCKET_NAME}`) return refuse(404, 'Not found.');
    wss.handleUpgrade(request, socket, head, (ws) => onConnection(ws));
  });

  function onConnection(ws: WebSocket): void {
    sockets.add(ws);
    // Messages holding bytes (process output) go as binary messages, the rest as JSON text.
    const send = (message: unknown): void => {
      if (ws.readyState === ws.OPEN) ws.send(encodeWebMessage(message));
    };
    const feed = service.attach((name, payload) => send({ type: 'event', name, payload }));
    ws.on('message', (data, isBinary) => {
      void (async () => {
        let json: unknown;
        try {
          json = decodeWebMessage(isBinary ? bytesOf(data) : bytesOf(data).toString());
        } catch (error) {
          return send(malformed(-1, `not JSON (${errorMessage(error)}).`));
        }
        const parsed = WebInvokeMessage.safeParse(json);
        if (!parsed.success) {
          const id = (json as { id?: unknown } | null)?.id;
          return send(
            malformed(
              typeof id === 'number' && Number.isInteger(id) ? id : -1,
              'expected {type:"invoke", id, name, input}.',
            ),
          );
        }
        const { id, name, input } = parsed.data;
        const result = await dispatch(service.handlers, feed, name, input);
        send({ type: 'result', id, ...result });
      })();
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      sockets.delete(ws);
      service.detach(feed);
    });
  }

  function hostAllowed(request: IncomingMessage): boolean {
    const host = request.headers.host;
    return host === undefined || origins.has(`http://${host}`);
  }

  await listen(server, options.host, options.port);
  const port = (server.address() as AddressInfo).port;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const origin = `http://${shownHost}:${port}`;
  origins = new Set([origin, `http://localhost:${port}`]);
  // The page also talks to this host's WebSocket (ws:// or wss:// on the same origin).
  csp = contentSecurityPolicy([origin.replace(/^http/, 'ws')]);

  const pageUrl = `${origin}${scope}`;

  return {
    url: `${pageUrl}?${WEB_TOKEN_PARAM}=${credentials.token}`,
    pageUrl,
    port,
    oneTimeUrl: (onSpent) => `${pageUrl}?${WEB_CODE_PARAM}=${credentials.issueCode(onSpent)}`,
    async close() {
      downloads.close();
      credentials.close();
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A message's payload as one Buffer (ws hands fragmented messages over as a list). */
function bytesOf(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : Buffer.from(data);
}

function malformed(id: number, detail: string) {
  return {
    type: 'result',
    id,
    ok: false,
    error: { code: 'invalidInput', message: `Malformed message: ${detail}` },
  };
}

function listen(server: http.Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
      if (error.code === 'EADDRINUSE') {
        reject(new WebHostListenError('inUse', `${where} is already in use by another program.`));
      } else if (error.code === 'EACCES') {
        reject(new WebHostListenError('denied', `listening on ${where} is not permitted.`));
      } else {
        reject(new WebHostListenError('other', `cannot listen on ${where}: ${error.message}`));
      }
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
