// The byte pipe under one connection: a WebSocket or a spawned stdio command, both carrying one
// JSON-RPC message per frame/line. A transport reports every inbound byte (for liveness), each
// message, and its end exactly once; it never parses JSON.
import type { ClientError } from './client-error';

export interface TransportHandlers {
  /** One message: the frame's bytes (ws) or a line (stdio), not yet decoded. */
  onMessage(message: Buffer | string): void;
  /** Bytes arrived from the peer (message data, pongs, partial frames). */
  onActivity(): void;
  /** The transport ended; called once, never after close() was called by us. */
  onClose(error: ClientError): void;
}

export interface Transport {
  readonly kind: 'ws' | 'stdio';
  /** Human-readable peer description for messages ("ws://127.0.0.1:4000", "stdio: ssh host …"). */
  readonly description: string;
  /** Queues one message; throws ClientError('disconnected') if the transport is gone. */
  send(text: string): void;
  /** Sends a transport-level keepalive ping; returns false if the transport has none. */
  ping(): boolean;
  /** Ends the transport (idempotent). onClose is not called afterwards. */
  close(): void;
}
