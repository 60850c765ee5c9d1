// codex's `http/request` with a streamed response, on one client's connections: the call, and the
// `http/request/bodyDelta` notifications of each response routed by request id and put in seq
// order. A body whose connection ends is cut (its sink ends with an error), as codex's own client
// fails streamed bodies on any disconnect.
import { randomUUID } from 'node:crypto';
import {
  ErrorCode,
  HttpBodyDeltaParams,
  Method,
  Notification,
  type HttpHeader,
} from '../../../shared/protocol';
import { ClientError, isClientError } from '../client-error';
import { HTTP_FORWARD_MAX_HELD_DELTAS } from '../constants';
import type { ExecServerConnection } from '../link/connection';
import type { ForwardingMode } from './port-forward';

export interface HttpRequestSpec {
  method: string;
  /** http://HOST:PORT/PATH */
  url: string;
  headers: HttpHeader[];
  /** The whole body, or null for none. */
  body: Buffer | null;
}

export interface HttpResponseHead {
  status: number;
  headers: HttpHeader[];
}

/** Where one response goes: its head once, then its body in order, then the end (error: cut). */
export interface HttpResponseSink {
  head(head: HttpResponseHead): void;
  data(bytes: Buffer): void;
  end(error: string | null): void;
}

export interface HttpRequestsOps {
  /** A usable connection, waiting for recovery first (bounded by `signal`). */
  ready(signal?: AbortSignal): Promise<ExecServerConnection>;
  /** How long a request waits for its response headers (HTTP_FORWARD_HEAD_TIMEOUT_MS). */
  headTimeoutMs: number;
}

interface OpenResponse {
  connection: ExecServerConnection;
  sink: HttpResponseSink;
  headed: boolean;
  nextSeq: number;
  /** Pieces ahead of the head or of their turn, by seq. */
  held: Map<number, HttpBodyDeltaParams>;
}

export class HttpRequests {
  private readonly open = new Map<string, OpenResponse>();

  constructor(private readonly ops: HttpRequestsOps) {}

  /** Responses whose body is still coming (for tests: none may outlive its request). */
  get openCount(): number {
    return this.open.size;
  }

  /**
   * Sends the request; resolves once `sink` has the response head (the body follows), rejects when
   * the server answered an error (the target refused, a bad URL) or the call failed.
   */
  async request(spec: HttpRequestSpec, sink: HttpResponseSink, signal?: AbortSignal): Promise<void> {
    const connection = await this.ops.ready(signal);
    const requestId = randomUUID();
    // Registered before the call goes out: codex may send body pieces ahead of its result.
    const response: OpenResponse = { connection, sink, headed: false, nextSeq: 1, held: new Map() };
    this.open.set(requestId, response);
    let result;
    try {
      result = await connection.call(
        Method.httpRequest,
        {
          method: spec.method,
          url: spec.url,
          requestId,
          headers: spec.headers,
          ...(spec.body !== null ? { bodyBase64: spec.body.toString('base64') } : {}),
          // Redirects go back to the browser, which follows them itself (and a redirect off the
          // loopback must not be fetched by the host).
          redirectPolicy: 'stop',
          streamResponse: true,
        },
        { timeoutMs: this.ops.headTimeoutMs },
      );
    } catch (error) {
      this.open.delete(requestId);
      throw error;
    }
    if (this.open.get(requestId) !== response) {
      // The connection ended between the result and now; the body is lost with it.
      throw new ClientError('disconnected', 'The link dropped before the response body came.');
    }
    response.headed = true;
    sink.head({ status: result.status, headers: result.headers });
    this.drain(requestId, response);
  }

  /** A notification from `connection`; true when it was a response body's. */
  notification(connection: ExecServerConnection, method: string, params: unknown): boolean {
    if (method !== Notification.httpBodyDelta) return false;
    const parsed = HttpBodyDeltaParams.safeParse(params);
    if (!parsed.success) return true;
    const response = this.open.get(parsed.data.requestId);
    if (!response || response.connection !== connection) return true;
    if (response.held.size >= HTTP_FORWARD_MAX_HELD_DELTAS) {
      this.finish(parsed.data.requestId, response, 'the server sent too many body pieces out of order');
      return true;
    }
    response.held.set(parsed.data.seq, parsed.data);
    if (response.headed) this.drain(parsed.data.requestId, response);
    return true;
  }

  /** `connection` ended: the bodies still coming on it are cut. */
  connectionClosed(connection: ExecServerConnection): void {
    for (const [requestId, response] of [...this.open]) {
      if (response.connection !== connection) continue;
      // One whose head is not in yet fails through its call instead.
      if (response.headed) this.finish(requestId, response, 'the link to the environment dropped');
      else this.open.delete(requestId);
    }
  }

  /** The client closed: every body still coming is cut. */
  closeAll(): void {
    for (const [requestId, response] of [...this.open]) {
      if (response.headed) this.finish(requestId, response, 'the client was closed');
    }
    this.open.clear();
  }

  /** Delivers the held pieces that are next in seq order. */
  private drain(requestId: string, response: OpenResponse): void {
    for (;;) {
      const delta = response.held.get(response.nextSeq);
      if (!delta) return;
      response.held.delete(response.nextSeq);
      response.nextSeq++;
      const bytes = Buffer.from(delta.deltaBase64, 'base64');
      if (bytes.length > 0) response.sink.data(bytes);
      if (delta.done || delta.error) {
        this.finish(requestId, response, delta.error ?? null);
        return;
      }
    }
  }

  private finish(requestId: string, response: OpenResponse, error: string | null): void {
    if (this.open.get(requestId) !== response) return;
    this.open.delete(requestId);
    response.held.clear();
    response.sink.end(error);
  }
}

/** Whether the server behind `connection` serves http/request: a URL it must refuse tells. */
export async function probeHttpRequest(connection: ExecServerConnection): Promise<ForwardingMode> {
  try {
    await connection.call(Method.httpRequest, {
      method: 'GET',
      url: 'tether-probe:',
      requestId: `tether-probe-${randomUUID()}`,
    });
  } catch (error) {
    if (isClientError(error, 'rpc') && error.rpc?.code === ErrorCode.invalidParams) return 'http';
    if (isClientError(error, 'rpc') && error.rpc?.code === ErrorCode.methodNotFound) {
      throw new ClientError(
        'unsupported',
        'This server offers neither TCP streams (tetherStreams) nor http/request: port forwarding needs ' +
          'Tether’s own server, or a codex exec-server for plain HTTP.',
      );
    }
    throw error;
  }
  throw new ClientError(
    'protocol',
    'The server fetched a URL that is not http: it cannot be trusted to forward.',
  );
}
