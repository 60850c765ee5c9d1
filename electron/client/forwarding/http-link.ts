// The dedicated second connection that HTTP forwards to a codex server ride on: a client of its
// own to the same server (so a big response never delays terminal traffic on the main link, and
// codex's one-request-at-a-time per connection is not spent on it), opened at the first request,
// reconnecting as any client does, and replaced when it failed for good or a silent target holds
// its one request slot.
import type { ConnectionState } from '../api';
import { ClientError, isClientError } from '../client-error';
import type { HttpRequestSpec, HttpResponseSink } from './http-requests';

/** What the link needs of its client (a RemoteExecServerClient of its own). */
export interface HttpLinkClient {
  readonly state: ConnectionState;
  /** http/request on this client's own connection (HttpRequests.request). */
  requestHere(spec: HttpRequestSpec, sink: HttpResponseSink, signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

export class HttpLink {
  private client: HttpLinkClient | null = null;
  private closed = false;

  constructor(private readonly open: () => HttpLinkClient) {}

  /** Whether the dedicated connection exists now (opened by a request, not yet replaced or closed). */
  get isOpen(): boolean {
    return this.client !== null;
  }

  async request(spec: HttpRequestSpec, sink: HttpResponseSink, signal?: AbortSignal): Promise<void> {
    const client = this.current();
    try {
      await client.requestHere(spec, sink, signal);
    } catch (error) {
      // No head in time: codex still works on it, and serves nothing else on that connection
      // until it is done. A fresh connection serves the next request.
      if (isClientError(error, 'timeout')) this.retire(client);
      throw error;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await client?.close();
  }

  private current(): HttpLinkClient {
    if (this.closed) throw new ClientError('closed', 'The client was closed.');
    const kind = this.client?.state.kind;
    // A client that failed for good (its session forgotten, auth refused) is not coming back.
    if (this.client && (kind === 'failed' || kind === 'closed')) this.retire(this.client);
    this.client ??= this.open();
    return this.client;
  }

  private retire(client: HttpLinkClient): void {
    if (this.client === client) this.client = null;
    void client.close();
  }
}
