// The client's end of `tetherStreams`: pipes a local socket to a TCP port on the host through one
// stream of the current connection, with the same credit window as the server's end
// (shared/protocol/stream-channel.ts). Streams live on one connection: when it ends, their sockets
// are reset at once, so a browser sees a dropped request instead of one that hangs.
import { randomUUID } from 'node:crypto';
import type * as net from 'node:net';
import {
  Method,
  Notification,
  StreamChannel,
  StreamCreditParams,
  StreamDataParams,
  StreamEndParams,
  StreamResetParams,
  STREAM_WINDOW_BYTES,
  TetherCapability,
  type StreamOpenResult,
} from '../../../shared/protocol';
import { errorMessage } from '../../../shared/error-message';
import { ClientError } from '../client-error';
import type { ExecServerConnection } from '../link/connection';
import { wireBytesToBuffer } from '../link/message-decoder';

/** A TCP port on the host: `localhost` (127.0.0.1, then ::1) or a loopback address. */
export interface StreamTarget {
  host: string;
  port: number;
}

/** What the mux needs of its client. */
export interface StreamMuxOps {
  /** A usable connection, waiting for recovery first (bounded by `signal`). */
  ready(signal?: AbortSignal): Promise<ExecServerConnection>;
  hasCapability(name: string): boolean;
}

interface OpenStream {
  channel: StreamChannel;
  connection: ExecServerConnection;
}

export class StreamMux {
  private readonly streams = new Map<string, OpenStream>();

  constructor(private readonly ops: StreamMuxOps) {}

  /** Streams open now (for tests: none may outlive its socket). */
  get openCount(): number {
    return this.streams.size;
  }

  /**
   * Pipes `socket` (created paused, with allowHalfOpen) to `target` on the host. Resolves once the
   * host accepted; rejects, with the socket reset, when it refused or the link was not there in time.
   */
  async pipe(socket: net.Socket, target: StreamTarget, signal?: AbortSignal): Promise<StreamOpenResult> {
    let connection: ExecServerConnection;
    try {
      connection = await this.ops.ready(signal);
      if (!this.ops.hasCapability(TetherCapability.streams)) {
        throw new ClientError(
          'unsupported',
          'This server does not offer TCP streams (tetherStreams): port forwarding needs Tether’s own server.',
        );
      }
    } catch (error) {
      resetSocket(socket);
      throw error;
    }
    const streamId = randomUUID();
    const channel = new StreamChannel(
      {
        write: (bytes, written) => socket.write(bytes, () => written()),
        end: () => socket.end(),
        pause: () => socket.pause(),
        resume: () => socket.resume(),
        reset: () => resetSocket(socket),
      },
      {
        // A plain view, not the socket's Buffer: JSON.stringify would first run Buffer's toJSON,
        // which builds an array of every byte, before the payload replacer sees the field.
        data: (data) =>
          connection.notify(Notification.streamData, {
            streamId,
            data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
          }),
        credit: (bytes) => connection.notify(Notification.streamCredit, { streamId, bytes }),
        end: () => connection.notify(Notification.streamEnd, { streamId }),
        reset: (message) => connection.notify(Notification.streamReset, { streamId, message }),
      },
      STREAM_WINDOW_BYTES,
      () => this.streams.delete(streamId),
    );
    // Registered before the open goes out: the host's first bytes may follow its answer at once.
    this.streams.set(streamId, { channel, connection });
    socket.on('data', (chunk: Buffer) => channel.fromSocket(chunk));
    socket.on('end', () => channel.socketEnded());
    socket.on('error', (error) => channel.socketFailed(errorMessage(error)));
    socket.on('close', () => channel.socketClosed());
    try {
      const result = await connection.call(Method.streamOpen, {
        streamId,
        host: target.host,
        port: target.port,
        windowBytes: STREAM_WINDOW_BYTES,
      });
      channel.credit(result.windowBytes);
      return result;
    } catch (error) {
      // Refused, or the link went while opening: the host holds nothing (a late open is reset there).
      if (!channel.finished) connection.notify(Notification.streamReset, { streamId });
      channel.abort();
      throw error;
    }
  }

  /** A notification from `connection`; true when it was a stream's. */
  notification(connection: ExecServerConnection, method: string, params: unknown): boolean {
    const stream = (id: string): StreamChannel | undefined => {
      const open = this.streams.get(id);
      return open && open.connection === connection ? open.channel : undefined;
    };
    switch (method) {
      case Notification.streamData: {
        const parsed = StreamDataParams.safeParse(params);
        if (parsed.success) stream(parsed.data.streamId)?.peerData(wireBytesToBuffer(parsed.data.data));
        return true;
      }
      case Notification.streamCredit: {
        const parsed = StreamCreditParams.safeParse(params);
        if (parsed.success) stream(parsed.data.streamId)?.credit(parsed.data.bytes);
        return true;
      }
      case Notification.streamEnd: {
        const parsed = StreamEndParams.safeParse(params);
        if (parsed.success) stream(parsed.data.streamId)?.peerEnd();
        return true;
      }
      case Notification.streamReset: {
        const parsed = StreamResetParams.safeParse(params);
        if (parsed.success) stream(parsed.data.streamId)?.peerReset();
        return true;
      }
      default:
        return false;
    }
  }

  /** `connection` ended: its streams' sockets are reset now. */
  connectionClosed(connection: ExecServerConnection): void {
    for (const open of [...this.streams.values()]) {
      if (open.connection === connection) open.channel.abort();
    }
  }

  /** The client closed: every stream ends. */
  closeAll(): void {
    for (const open of [...this.streams.values()]) open.channel.abort();
  }
}

/** A TCP reset for a connected socket; one never connected (or already gone) is just destroyed. */
function resetSocket(socket: net.Socket): void {
  if (socket.remoteAddress === undefined || socket.destroyed) socket.destroy();
  else socket.resetAndDestroy();
}
