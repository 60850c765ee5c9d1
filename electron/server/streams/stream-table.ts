// The TCP streams of one connection (`tetherStreams`): `stream/open` dials a loopback port on this
// host, and each open stream is a StreamChannel between that socket and the wire. Streams belong
// to the connection, not the session: when the link goes, every socket is reset at once (the
// client resets its side too), so nothing half-open lingers through an outage.
import * as net from 'node:net';
import {
  ErrorCode,
  grantedStreamWindow,
  loopbackAddresses,
  Notification,
  StreamChannel,
  StreamCreditParams,
  StreamDataParams,
  StreamEndParams,
  StreamErrorKind,
  StreamResetParams,
  STREAM_WINDOW_BYTES,
  type StreamOpenParams,
  type StreamOpenResult,
} from '../../../shared/protocol';
import { errorMessage } from '../../../shared/error-message';
import { decodeBase64Strict } from '../rpc/base64';
import { RpcError } from '../rpc/rpc-error';
import { MAX_STREAMS_PER_CONNECTION, STREAM_CONNECT_TIMEOUT_MS, STREAM_READ_BUFFER_BYTES } from '../limits';

/** How the table sends its notifications (byte fields raw in data frames where agreed). */
export interface StreamSend {
  notification(method: string, params: Record<string, unknown>): void;
  /** `stream/data`, on the hot path: built straight into a pooled buffer. */
  data(streamIdJson: string, data: Buffer): void;
}

const STREAM_NOTIFICATIONS: ReadonlySet<string> = new Set([
  Notification.streamData,
  Notification.streamCredit,
  Notification.streamEnd,
  Notification.streamReset,
]);

export function isStreamNotification(method: string): boolean {
  return STREAM_NOTIFICATIONS.has(method);
}

export class StreamTable {
  private readonly streams = new Map<string, StreamChannel>();
  /** Ids whose open is still dialling: taken, and a reset for them cancels the dial. */
  private readonly opening = new Map<string, AbortController>();
  private blocked = false;
  private closed = false;

  constructor(private readonly send: StreamSend) {}

  get size(): number {
    return this.streams.size + this.opening.size;
  }

  async open(params: StreamOpenParams): Promise<StreamOpenResult> {
    const { streamId } = params;
    if (this.closed) throw RpcError.invalidRequest('the connection is closing');
    if (this.streams.has(streamId) || this.opening.has(streamId)) {
      throw RpcError.invalidRequest(`stream id ${streamId} is already in use on this connection`);
    }
    if (this.size >= MAX_STREAMS_PER_CONNECTION) {
      throw RpcError.limitExceeded(
        'streams',
        MAX_STREAMS_PER_CONNECTION,
        `${MAX_STREAMS_PER_CONNECTION} streams are already open on this connection; close some first`,
      );
    }
    const addresses = loopbackAddresses(params.host);
    if (addresses === null) {
      throw new RpcError(
        ErrorCode.invalidRequest,
        `stream target ${params.host} is not a loopback address: only localhost, 127.0.0.0/8 and ::1 are served`,
        { kind: StreamErrorKind.notLoopback },
      );
    }
    const aborter = new AbortController();
    this.opening.set(streamId, aborter);
    let socket: DialledSocket;
    let address: string;
    try {
      ({ socket, address } = await dialFirst(addresses, params.port, aborter.signal));
    } finally {
      this.opening.delete(streamId);
    }
    if (this.closed || aborter.signal.aborted) {
      socket.resetAndDestroy();
      throw RpcError.invalidRequest(`stream ${streamId} was reset while it was opening`);
    }
    this.attach(streamId, socket, params.windowBytes);
    return { windowBytes: grantedStreamWindow(STREAM_WINDOW_BYTES), address };
  }

  /** A `stream/*` notification from the client; malformed ones and unknown ids are ignored. */
  handle(method: string, params: unknown): void {
    switch (method) {
      case Notification.streamData: {
        const parsed = StreamDataParams.safeParse(params);
        if (!parsed.success) return;
        const channel = this.streams.get(parsed.data.streamId);
        if (!channel) return;
        const { data } = parsed.data;
        if (typeof data !== 'string') {
          channel.peerData(data);
          return;
        }
        const decoded = decodeBase64Strict(data);
        if (decoded.ok) channel.peerData(decoded.bytes);
        else channel.fail(`stream/data is not valid base64: ${decoded.reason}`);
        return;
      }
      case Notification.streamCredit: {
        const parsed = StreamCreditParams.safeParse(params);
        if (parsed.success) this.streams.get(parsed.data.streamId)?.credit(parsed.data.bytes);
        return;
      }
      case Notification.streamEnd: {
        const parsed = StreamEndParams.safeParse(params);
        if (parsed.success) this.streams.get(parsed.data.streamId)?.peerEnd();
        return;
      }
      case Notification.streamReset: {
        const parsed = StreamResetParams.safeParse(params);
        if (!parsed.success) return;
        this.opening.get(parsed.data.streamId)?.abort();
        this.streams.get(parsed.data.streamId)?.peerReset();
        return;
      }
    }
  }

  /** The connection's outbound queue is full (or drained): stop (resume) reading every socket. */
  setBlocked(blocked: boolean): void {
    this.blocked = blocked;
    for (const channel of this.streams.values()) channel.setBlocked(blocked);
  }

  /** The connection is gone: every socket is reset, every dial cancelled. */
  closeAll(): void {
    this.closed = true;
    for (const aborter of this.opening.values()) aborter.abort();
    for (const channel of [...this.streams.values()]) channel.abort();
  }

  private attach(streamId: string, socket: DialledSocket, clientWindow: number): void {
    const streamIdJson = JSON.stringify(streamId);
    const channel = new StreamChannel(
      {
        write: (bytes, written) => socket.write(bytes, () => written()),
        end: () => socket.end(),
        pause: () => socket.pause(),
        resume: () => socket.resume(),
        reset: () => socket.resetAndDestroy(),
      },
      {
        data: (data) => this.send.data(streamIdJson, data as Buffer),
        credit: (bytes) => this.send.notification(Notification.streamCredit, { streamId, bytes }),
        end: () => this.send.notification(Notification.streamEnd, { streamId }),
        reset: (message) => this.send.notification(Notification.streamReset, { streamId, message }),
      },
      grantedStreamWindow(STREAM_WINDOW_BYTES),
      () => this.streams.delete(streamId),
    );
    this.streams.set(streamId, channel);
    channel.setBlocked(this.blocked);
    socket.reads.deliver = (chunk) => channel.fromSocket(chunk, true);
    socket.on('end', () => channel.socketEnded());
    socket.on('error', (error) => channel.socketFailed(errorMessage(error)));
    socket.on('close', () => channel.socketClosed());
    channel.credit(grantedStreamWindow(clientWindow));
  }
}

/** Connects to the first address that accepts; the last refusal is the error. */
async function dialFirst(
  addresses: readonly string[],
  port: number,
  signal: AbortSignal,
): Promise<{ socket: DialledSocket; address: string }> {
  let lastError: unknown = null;
  for (const address of addresses) {
    try {
      return { socket: await dial(address, port, signal), address };
    } catch (error) {
      lastError = error;
      if (signal.aborted) break;
    }
  }
  const code = (lastError as NodeJS.ErrnoException | null)?.code;
  const where = `${addresses.join(' and ')} port ${port}`;
  if (code === 'ECONNREFUSED') {
    throw new RpcError(ErrorCode.internal, `nothing listens on ${where} on the host (connection refused)`, {
      kind: StreamErrorKind.refused,
    });
  }
  throw new RpcError(
    ErrorCode.internal,
    `could not connect to ${where} on the host: ${errorMessage(lastError)}`,
    {
      kind: StreamErrorKind.failed,
    },
  );
}

/**
 * One read buffer for every stream socket of this process. A read is framed (copied into its
 * outbound message) before the next one can land, and what a channel must hold it copies; so no
 * read allocates (a socket's own reads take a fresh 64 KiB buffer each, for the GC to collect),
 * and one read may take up to 128 KiB.
 */
const STREAM_READ_BUFFER = Buffer.allocUnsafe(STREAM_READ_BUFFER_BYTES);

/** A connected stream socket, and where its reads go (set once its channel exists). */
type DialledSocket = net.Socket & { reads: { deliver: (bytes: Buffer) => void } };

function dial(host: string, port: number, signal: AbortSignal): Promise<DialledSocket> {
  return new Promise((resolve, reject) => {
    const reads = { deliver: (_bytes: Buffer): void => undefined };
    // allowHalfOpen: the client's end of data must not end the data coming back.
    const socket = net.connect({
      host,
      port,
      allowHalfOpen: true,
      noDelay: true,
      onread: {
        buffer: STREAM_READ_BUFFER,
        callback: (bytes: number, buffer: Uint8Array) => {
          reads.deliver((buffer as Buffer).subarray(0, bytes));
          return true;
        },
      },
    });
    const fail = (error: Error): void => {
      cleanup();
      socket.destroy();
      reject(error);
    };
    const onAbort = (): void => fail(new Error('the open was cancelled'));
    const timer = setTimeout(
      () => fail(new Error(`no answer within ${STREAM_CONNECT_TIMEOUT_MS} ms`)),
      STREAM_CONNECT_TIMEOUT_MS,
    );
    const cleanup = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      socket.off('error', fail);
    };
    signal.addEventListener('abort', onAbort);
    socket.once('error', fail);
    socket.once('connect', () => {
      cleanup();
      socket.pause();
      resolve(Object.assign(socket, { reads }));
    });
  });
}
