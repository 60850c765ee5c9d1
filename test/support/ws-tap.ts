// A WebSocket relay on 127.0.0.1 between a client and an exec-server that records every message
// that crosses it (direction, text or binary, and a data frame's JSON header), so tests can assert
// what actually went on the wire; it can also cut every relayed link at once, as a network would.
// Every message is forwarded unchanged and in order (the client's Authorization header included);
// `onClientMessage` shows the test each JSON text message the client sends, before it is forwarded.
import { WebSocket, WebSocketServer, type RawData } from 'ws';

export interface TappedMessage {
  direction: 'up' | 'down';
  /** Which relayed connection (0, 1, … in the order they opened). */
  link: number;
  binary: boolean;
  bytes: number;
  /** For a binary message that starts like a Tether data frame: its JSON header text. */
  dataFrameHeader?: string;
}

/** A JSON-RPC message as the client sent it (only the fields a test looks at). */
export interface ClientMessage {
  method?: string;
  params?: Record<string, unknown>;
}

export interface WsTapOptions {
  onClientMessage?: (message: ClientMessage) => void;
}

const DATA_FRAME_FIRST_BYTE = 0xb7;
const DATA_FRAME_PREFIX_BYTES = 6;

function toBuffer(data: RawData): Buffer {
  return Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}

/** The JSON header of a data frame, read independently of the codec under test. */
function headerOf(frame: Buffer): string | undefined {
  if (frame.length < DATA_FRAME_PREFIX_BYTES || frame[0] !== DATA_FRAME_FIRST_BYTE) return undefined;
  const length = frame.readUInt32BE(2);
  return frame.toString('utf8', DATA_FRAME_PREFIX_BYTES, DATA_FRAME_PREFIX_BYTES + length);
}

export class WsTap {
  readonly messages: TappedMessage[] = [];
  private readonly pairs = new Set<{ client: WebSocket; upstream: WebSocket }>();
  private links = 0;
  /** New links are accepted only from this time on (Date.now() ms): an outage of a chosen length. */
  private holdUntil = 0;

  private constructor(
    private readonly server: WebSocketServer,
    readonly url: string,
    private readonly onClientMessage: (message: ClientMessage) => void,
  ) {}

  /** Starts a tap in front of the exec-server at `upstreamUrl`; auth headers pass through. */
  static async start(upstreamUrl: string, options: WsTapOptions = {}): Promise<WsTap> {
    // eslint-disable-next-line prefer-const -- assigned once the server listens; read by verifyClient later
    let tap: WsTap;
    const server = new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      perMessageDeflate: false,
      maxPayload: 0,
      // The upgrade waits out a hold, so no message can arrive before the relay listens.
      verifyClient: (_info, accept) => {
        setTimeout(() => accept(true), Math.max(0, tap.holdUntil - Date.now()));
      },
    });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    tap = new WsTap(server, `ws://127.0.0.1:${port}`, options.onClientMessage ?? (() => undefined));
    server.on('connection', (client, request) =>
      tap.relay(client, upstreamUrl, request.headers.authorization),
    );
    return tap;
  }

  private relay(client: WebSocket, upstreamUrl: string, authorization: string | undefined): void {
    const link = this.links++;
    const upstream = new WebSocket(upstreamUrl, {
      headers: authorization === undefined ? {} : { authorization },
      perMessageDeflate: false,
      maxPayload: 0,
    });
    const pair = { client, upstream };
    this.pairs.add(pair);
    // Messages the client sends before the upstream is open wait, in order.
    const early: Array<{ data: Buffer; binary: boolean }> = [];
    const record = (direction: 'up' | 'down', data: Buffer, binary: boolean): void => {
      const header = binary ? headerOf(data) : undefined;
      this.messages.push({
        direction,
        link,
        binary,
        bytes: data.length,
        ...(header !== undefined ? { dataFrameHeader: header } : {}),
      });
    };
    client.on('message', (raw, binary) => {
      const data = toBuffer(raw);
      record('up', data, binary);
      if (!binary) this.onClientMessage(JSON.parse(data.toString()) as ClientMessage);
      if (upstream.readyState === WebSocket.OPEN) upstream.send(data, { binary });
      else early.push({ data, binary });
    });
    upstream.on('open', () => {
      for (const { data, binary } of early.splice(0)) upstream.send(data, { binary });
    });
    upstream.on('message', (raw, binary) => {
      const data = toBuffer(raw);
      record('down', data, binary);
      if (client.readyState === WebSocket.OPEN) client.send(data, { binary });
    });
    const end = (): void => {
      this.pairs.delete(pair);
      client.terminate();
      upstream.terminate();
    };
    for (const socket of [client, upstream]) {
      socket.on('close', end);
      socket.on('error', end);
    }
  }

  /**
   * Drops every relayed link abruptly; returns how many there were. With `holdNewLinksMs`, new links
   * wait that long to be accepted, so the process goes on printing into a gap the client must replay.
   */
  cutAll(options: { holdNewLinksMs?: number } = {}): number {
    this.holdUntil = Date.now() + (options.holdNewLinksMs ?? 0);
    const count = this.pairs.size;
    for (const { client, upstream } of [...this.pairs]) {
      client.terminate();
      upstream.terminate();
    }
    return count;
  }

  /** Messages recorded in `direction`, optionally only binary ones. */
  count(direction: 'up' | 'down', filter: (message: TappedMessage) => boolean = () => true): number {
    return this.messages.filter((m) => m.direction === direction && filter(m)).length;
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
