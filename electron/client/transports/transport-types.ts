// The byte pipe under one connection: a WebSocket, a spawned stdio command, or an SSH bridge to a
// host's daemon, each carrying one JSON-RPC message per frame/line. A transport reports every
// inbound byte (for liveness), each message, and its end exactly once; it never parses JSON. The
// implementations import these types, and transport.ts builds them: the types live apart so that
// the factory and its transports do not import each other.
import type { ClientError } from '../client-error';
import type { ArtifactLocations } from '../remote-host/local-artifacts';
import type { SshHooks } from './ssh/ssh-hooks';

export interface TransportHandlers {
  /**
   * One message: the frame's bytes (ws), or a line or frame body (stdio), not yet decoded; `binary`
   * when it came in a binary WebSocket message or a data-frame stream frame (either may be a data
   * frame).
   */
  onMessage(message: Buffer | string, binary?: boolean): void;
  /**
   * A byte stream lost its message boundaries (garbage where a frame must begin, a length above
   * the bound): nothing more can be read from it. The connection ends it as a protocol error.
   */
  onBroken(reason: string): void;
  /** Bytes arrived from the peer (message data, pongs, partial frames). */
  onActivity(): void;
  /** The transport ended; called once, never after close() was called by us. */
  onClose(error: ClientError): void;
}

export interface Transport {
  /** Human-readable peer description for messages ("ws://127.0.0.1:4000", "stdio: ssh host …"). */
  readonly description: string;
  /**
   * The peer answers transport-level pings even while its server is busy, so a long silence
   * means a dead peer; without pings a silent link can only be called stalled.
   */
  readonly hasPings: boolean;
  /** Queues one message; throws ClientError('disconnected') if the transport is gone. */
  send(text: string): void;
  /**
   * Queues one binary data frame, like send. Only transports that can carry them have it
   * (WebSocket, stdio and so SSH); the connection asks for `tetherBinaryFrames` only where it is.
   * `written` runs once the frame's bytes are no longer needed (so its buffer may be reused).
   */
  sendDataFrame?(frame: Uint8Array, written?: () => void): void;
  /**
   * The server agreed to binary frames, and its initialize result was read: a byte stream frames
   * every message from here on, both ways. WebSocket messages need nothing.
   */
  useFrames?(): void;
  /** Sends a transport-level keepalive ping; returns false if the transport has none. */
  ping(): boolean;
  /** Ends the transport (idempotent). onClose is not called afterwards. */
  close(): void;
}

/**
 * Opens the transports of one client, one per connection. `prepare` does whatever must happen
 * before a link can open and may take as long as the user does (an SSH password, an install);
 * `open` then opens within its timeout. `resume` says whether the link is to resume a session.
 */
export interface TransportOpener {
  prepare(resume: boolean): Promise<void>;
  open(handlers: TransportHandlers, timeoutMs: number, resume: boolean): Promise<Transport>;
  /**
   * A link of this opener was lost while stalled: what links ride on (an SSH master) may be stuck
   * on the same dead route, and is rebuilt before the next link rather than trusted.
   */
  linkStalled?(): void;
  /**
   * Ends what the opener holds between links (an SSH master). A promise settles once what its
   * links ran has ended too (a stdio server's process, within its kill grace).
   */
  dispose(): void | Promise<void>;
}

export interface TransportOpenerOptions {
  /** Prompts and progress of a connect that bootstraps a host; without them a question fails it. */
  ssh?: SshHooks;
  /** Where the host bootstrap finds what it uploads (defaults: this build's dist/ and .cache/). */
  sshArtifacts?: ArtifactLocations;
  /**
   * SSH transports: sign in through the host's shared master, which outlives the client for a
   * few minutes (the CLI: the next command to that host skips authentication), instead of a
   * master of the client's own that ends with it (the app).
   */
  sshSharedMaster?: boolean;
}
