// A WebSocket relay on 127.0.0.1 between a real client and a real exec-server: every message is
// forwarded unchanged and in order (text or binary, the client's Authorization header included),
// and each JSON text message the client sends is shown to the test first. It observes the wire;
// it changes nothing on it.
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer, type RawData } from 'ws';

/** A JSON-RPC message as the client sent it (only the fields a test looks at). */
export interface ClientMessage {
  method?: string;
  params?: Record<string, unknown>;
}

export class WsRelay {
  private readonly sockets = new Set<WebSocket>();

  private constructor(
    private readonly server: WebSocketServer,
    private readonly targetUrl: string,
    private readonly onClientMessage: (message: ClientMessage) => void,
  ) {
    server.on('connection', (client, request) => this.bridge(client, request));
  }

  /** Listens on an ephemeral port and relays each connection to `targetUrl`. */
  static async start(targetUrl: string, onClientMessage: (message: ClientMessage) => void): Promise<WsRelay> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    return new WsRelay(server, targetUrl, onClientMessage);
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private bridge(client: WebSocket, request: IncomingMessage): void {
    const authorization = request.headers.authorization;
    const upstream = new WebSocket(this.targetUrl, {
      headers: authorization === undefined ? {} : { Authorization: authorization },
      perMessageDeflate: false,
    });
    this.sockets.add(client);
    this.sockets.add(upstream);
    // The client may speak before the upstream connection is open: its messages wait, in order.
    const early: Array<{ data: RawData; isBinary: boolean }> = [];
    client.on('message', (data, isBinary) => {
      if (!isBinary) this.onClientMessage(JSON.parse(data.toString()) as ClientMessage);
      if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
      else early.push({ data, isBinary });
    });
    upstream.on('open', () => {
      for (const { data, isBinary } of early.splice(0)) upstream.send(data, { binary: isBinary });
    });
    upstream.on('message', (data, isBinary) => {
      if (client.readyState === WebSocket.OPEN) client.send(data, { binary: isBinary });
    });
    const closeBoth = (): void => {
      client.terminate();
      upstream.terminate();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('close', closeBoth);
    upstream.on('close', closeBoth);
    client.on('error', closeBoth);
    upstream.on('error', closeBoth);
  }
}
