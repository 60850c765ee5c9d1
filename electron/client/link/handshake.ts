// The handshake of one connection: open its transport, initialize (a new session, or resuming
// ours), learn the environment, and have the link install it. SessionLink (session-link.ts) runs
// one for each connect or resume attempt; what the connection's events do stays there.
import { Method, Notification, type EnvironmentInfo } from '../../../shared/protocol';
import { ClientError, toClientError } from '../client-error';
import { ExecServerConnection, type ConnectionEvents } from './connection';
import {
  CLIENT_NAME,
  CONNECT_TIMEOUT_MS,
  INITIALIZE_TIMEOUT_MS,
  STALL_RECONNECT_AFTER_MS,
} from '../constants';
import type { ProcessSession } from '../processes/process-session';
import type { TransportOpener } from '../transports/transport-types';

/** The client options a handshake reads (SessionLinkOptions adds the rest). */
export interface HandshakeOptions {
  clientName?: string;
  /**
   * Drop a stalled link without pings and resume on a new one after this long without a reply
   * (default STALL_RECONNECT_AFTER_MS). Links that cannot resume (stdio) are never dropped.
   */
  stallReconnectAfterMs?: number;
  connectTimeoutMs?: number;
  initializeTimeoutMs?: number;
  /**
   * Ask for binary data frames (Tether's extension; WebSocket links only) so output and file
   * blocks travel without base64. Default true; codex's server ignores the request.
   */
  binaryFrames?: boolean;
}

/** What a handshake needs of the session link it runs for. */
export interface HandshakeLink {
  readonly opener: TransportOpener;
  readonly options: HandshakeOptions;
  /** Aborted by the link's close(): a late handshake closes its connection instead of installing it. */
  readonly signal: AbortSignal;
  /** Whether a new link can take over the session (else a stalled one is never dropped). */
  readonly canReplaceLink: boolean;
  /** Every followed process, routed on the new connection. */
  processes(): Iterable<ProcessSession>;
  /** The new connection's events; `opened()` is that connection once open (null before). */
  events(opened: () => ExecServerConnection | null): ConnectionEvents;
  install(connection: ExecServerConnection, sessionId: string, info: EnvironmentInfo): void;
}

/**
 * Opens a transport, sends initialize (+ initialized), learns the environment and installs the
 * connection. On any failure, the abort included, the connection is closed and the error thrown.
 */
export async function handshake(
  link: HandshakeLink,
  resumeSessionId: string | null,
  deadlineAt: number | null,
): Promise<void> {
  link.signal.throwIfAborted();
  const { options } = link;
  const remaining = (limit: number): number =>
    deadlineAt === null ? limit : Math.max(1_000, Math.min(limit, deadlineAt - Date.now()));
  let connection: ExecServerConnection | null = null;
  connection = await ExecServerConnection.open(
    link.opener,
    link.events(() => connection),
    remaining(options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS),
    resumeSessionId !== null,
    link.canReplaceLink ? (options.stallReconnectAfterMs ?? STALL_RECONNECT_AFTER_MS) : null,
  );
  for (const followed of link.processes()) connection.route(followed.processId, followed.accept);
  try {
    const askBinaryFrames = (options.binaryFrames ?? true) && connection.canCarryBinaryFrames;
    const result = await connection.call(
      Method.initialize,
      {
        clientName: options.clientName ?? CLIENT_NAME,
        resumeSessionId,
        ...(askBinaryFrames ? { tetherBinaryFrames: true } : {}),
      },
      { timeoutMs: remaining(options.initializeTimeoutMs ?? INITIALIZE_TIMEOUT_MS) },
    );
    if (resumeSessionId !== null && result.sessionId !== resumeSessionId) {
      throw new ClientError(
        'protocol',
        `The server resumed a different session (${result.sessionId}) than ours (${resumeSessionId}).`,
      );
    }
    connection.notify(Notification.initialized, {});
    // Codex's client asks environment/info only if initialize did not carry it.
    const info = result.environmentInfo ?? (await connection.call(Method.environmentInfo, undefined));
    if (connection.closed) {
      // A server that broke the protocol meanwhile (its stream's framing) is said as such.
      if (connection.brokeProtocol && connection.closedError) throw connection.closedError;
      throw new ClientError('disconnected', 'The connection dropped right after the handshake.');
    }
    link.signal.throwIfAborted();
    link.install(connection, result.sessionId, info);
  } catch (error) {
    const err = toClientError(error);
    connection.close(err);
    if (err.code === 'timeout' && connection.lastProtocolError) {
      throw new ClientError('protocol', `${err.message} ${connection.lastProtocolError}`);
    }
    throw err;
  }
}
