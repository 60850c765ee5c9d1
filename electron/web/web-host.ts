// The web host: serves the renderer and the IPC contract over a WebSocket on loopback only. Every
// HTTP request and WebSocket upgrade must carry the per-launch token (query or cookie); upgrades
// from a foreign Origin and requests for a foreign Host are refused. Malformed messages get a typed
// error and never take the host down.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { type AppService } from '../app/app-service';
import { dispatch } from '../app/dispatcher';
import { WEB_DOWNLOAD_PATH, WEB_SOCKET_PATH, WEB_TOKEN_PARAM, WebInvokeMessage } from '../../shared/ipc';
import { contentSecurityPolicy, plain, serveStatic } from './static-files';
import type { WebDownloads } from './web-downloads';

/** Largest inbound WebSocket message: an upload chunk (2 MB of base64) plus framing. */
const MAX_MESSAGE_BYTES = 4 * 1_048_576;
/** Cookie set on the first page load, so assets and the WebSocket carry the token without a query. */
const COOKIE_NAME = 'tether_token';

export interface WebHostOptions {
  service: AppService;
  downloads: WebDownloads;
  /** Folder with the built renderer (index.html). */
  staticDir: string;
  host: string;
  port: number;
  token: string;
}

export interface WebHost {
  /** http://HOST:PORT/?token=… — what the user opens. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const { service, downloads, token } = options;
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
    const fromQuery = url.searchParams.get(WEB_TOKEN_PARAM);
    if (!tokenMatches(fromQuery ?? cookieToken(request), token)) {
      return plain(
        response,
        401,
        'Unauthorized: open the URL Tether printed when it started (it carries the token).',
      );
    }
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return plain(response, 405, 'Method not allowed.');
    if (url.pathname.startsWith(WEB_DOWNLOAD_PATH)) {
      const id = url.pathname.slice(WEB_DOWNLOAD_PATH.length);
      if (!downloads.serve(id, response))
        plain(response, 404, 'This download link was already used or has expired.');
      return;
    }
    if (fromQuery) {
      response.setHeader('set-cookie', `${COOKIE_NAME}=${token}; HttpOnly; SameSite=Strict; Path=/`);
    }
    await serveStatic(options.staticDir, url.pathname, response, csp);
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
    if (!tokenMatches(url.searchParams.get(WEB_TOKEN_PARAM) ?? cookieToken(request), token)) {
      return refuse(401, 'Unauthorized: the token is missing or wrong.');
    }
    if (url.pathname !== WEB_SOCKET_PATH) return refuse(404, 'Not found.');
    wss.handleUpgrade(request, socket, head, (ws) => onConnection(ws));
  });

  function onConnection(ws: WebSocket): void {
    sockets.add(ws);
    const send = (message: unknown): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    const link = service.attach((name, payload) => send({ type: 'event', name, payload }));
    ws.on('message', (data, isBinary) => {
      void (async () => {
        if (isBinary) return send(malformed(-1, 'binary frames are not accepted; send JSON text.'));
        let json: unknown;
        try {
          json = JSON.parse(data.toString());
        } catch (error) {
          return send(malformed(-1, `not JSON (${(error as Error).message}).`));
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
        const result = await dispatch(service.handlers, link, name, input);
        send({ type: 'result', id, ...result });
      })();
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      sockets.delete(ws);
      service.detach(link);
    });
  }

  function hostAllowed(request: IncomingMessage): boolean {
    const host = request.headers.host;
    return host === undefined || origins.has(`http://${host}`);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const origin = `http://${shownHost}:${port}`;
  origins = new Set([origin, `http://localhost:${port}`]);
  csp = contentSecurityPolicy(origin);

  return {
    url: `${origin}/?${WEB_TOKEN_PARAM}=${token}`,
    port,
    async close() {
      downloads.close();
      for (const ws of sockets) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function malformed(id: number, detail: string) {
  return {
    type: 'result',
    id,
    ok: false,
    error: { code: 'invalidInput', message: `Malformed message: ${detail}` },
  };
}

function cookieToken(request: IncomingMessage): string | null {
  const header = request.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === COOKIE_NAME) return rest.join('=');
  }
  return null;
}

function tokenMatches(given: string | null, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
