// The WebSocket listener: one HTTP (or, for wss://, HTTPS) server whose `/` upgrades to JSON-RPC
// (after the Origin and bearer-token checks), `/readyz` answers 200, and everything else 400/404
// as codex does.
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { authenticate } from './auth';
import { Connection, type ConnectionDeps, type Transport } from '../rpc/connection';
import { releaseMessage } from '../rpc/message-pool';
import { MAX_INBOUND_FRAME_BYTES, WS_PING_INTERVAL_MS } from '../limits';
import type { AuthConfig, TlsFiles } from '../server-options';

export interface WsListener {
  /** `ws://IP:PORT` (or `wss://`) actually bound. */
  url: string;
  /** Stops accepting and drops every open socket. */
  close(): void;
}

function plainResponse(socket: Socket, status: number, reason: string, body: string): void {
  const headers = [
    `HTTP/1.1 ${status} ${reason}`,
    'connection: close',
    `content-length: ${Buffer.byteLength(body)}`,
    ...(body ? ['content-type: text/plain; charset=utf-8'] : []),
  ];
  socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
}

class WsTransport implements Transport {
  readonly parseErrorPrefix: string;
  private corked = false;

  constructor(
    private readonly ws: WebSocket,
    private readonly socket: Socket,
  ) {
    this.parseErrorPrefix = `failed to parse websocket JSON-RPC message from exec-server websocket ${socket.remoteAddress}:${socket.remotePort}`;
  }

  /** Messages produced in one event-loop turn leave in one TCP write. */
  private cork(): void {
    if (this.corked) return;
    this.corked = true;
    this.socket.cork();
    setImmediate(() => {
      this.corked = false;
      this.socket.uncork();
    });
  }

  send(message: string | Buffer): void {
    this.cork();
    this.ws.send(message, { binary: false }, (error) => {
      if (!error) releaseMessage(message);
    });
  }

  sendDataFrame(frame: Buffer): void {
    this.cork();
    this.ws.send(frame, { binary: true }, (error) => {
      if (!error) releaseMessage(frame);
    });
  }

  bufferedBytes(): number {
    return this.ws.bufferedAmount;
  }

  onceDrain(callback: () => void): void {
    this.socket.once('drain', callback);
  }

  pauseInbound(paused: boolean): void {
    if (paused) this.ws.pause();
    else this.ws.resume();
  }

  terminate(): void {
    this.ws.terminate();
  }

  probeAlive(timeoutMs: number): Promise<boolean> {
    if (this.ws.readyState !== this.ws.OPEN) return Promise.resolve(false);
    return new Promise((resolve) => {
      const settle = (alive: boolean): void => {
        clearTimeout(timer);
        this.ws.off('pong', onPong);
        this.ws.off('message', onPong);
        resolve(alive);
      };
      const onPong = (): void => settle(true);
      const timer = setTimeout(() => settle(false), timeoutMs);
      this.ws.on('pong', onPong);
      this.ws.on('message', onPong);
      this.ws.ping();
    });
  }
}

export function startWsListener(
  host: string,
  port: number,
  auth: AuthConfig,
  deps: ConnectionDeps,
  tls: TlsFiles | null = null,
): Promise<WsListener> {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_INBOUND_FRAME_BYTES,
    skipUTF8Validation: true,
    perMessageDeflate: false,
  });
  const answerPlainRequest: http.RequestListener = (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/readyz') {
      res.writeHead(200, { 'content-length': '0' }).end();
    } else if (path === '/') {
      res
        .writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
        .end("Connection header did not include 'upgrade'");
    } else {
      res.writeHead(404, { 'content-length': '0' }).end();
    }
  };
  const server = tls
    ? https.createServer({ cert: tls.cert, key: tls.key }, answerPlainRequest)
    : http.createServer(answerPlainRequest);
  // A client that fails the TLS handshake (an untrusted certificate, plain HTTP) is logged, not fatal.
  server.on('tlsClientError', (error: Error, socket: Socket) => {
    deps.logger.info(`TLS handshake with ${socket.remoteAddress} failed: ${error.message}`);
    socket.destroy();
  });

  server.on('upgrade', (req, socket: Socket, head) => {
    socket.on('error', () => {});
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/') return plainResponse(socket, 404, 'Not Found', '');
    if (req.headers.origin !== undefined) return plainResponse(socket, 403, 'Forbidden', '');
    const outcome = authenticate(req.headers.authorization, auth);
    if ('failure' in outcome) {
      deps.logger.info(`rejected websocket from ${socket.remoteAddress}: ${outcome.failure}`);
      return plainResponse(socket, 401, 'Unauthorized', outcome.failure);
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      socket.setNoDelay(true);
      const connection = new Connection(new WsTransport(ws, socket), deps, outcome.principal);
      const ping = setInterval(() => ws.ping(), WS_PING_INTERVAL_MS);
      ws.on('message', (data: Buffer, isBinary: boolean) => connection.handleBytes(data, isBinary));
      ws.on('error', () => ws.terminate());
      ws.on('close', () => {
        clearInterval(ping);
        connection.handleClose();
      });
    });
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        reject(new Error('listener has no TCP address'));
        return;
      }
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `${tls ? 'wss' : 'ws'}://${shownHost}:${address.port}`,
        close: () => {
          server.close();
          for (const client of wss.clients) client.terminate();
          server.closeAllConnections();
        },
      });
    });
  });
}
