// The public surface of the reconnecting exec-server client, as the app layer (electron/app) and
// `tether run` use it. Implemented by RemoteExecServerClient and ProcessSession in this folder.
import type {
  SessionProcessChangedNotification,
  SessionSummary,
  EnvironmentInfo,
  FsDirectoryEntry,
  FsMetadata,
  OutputStream,
  ProcessSignalName,
  TerminalSize,
  StreamOpenResult,
  ListeningPortEntry,
  WriteStatus,
} from '../../shared/protocol';
import type { Socket } from 'node:net';
import type { StreamTarget } from './forwarding/stream-mux';
import type { ForwardingMode } from './forwarding/port-forward';
import type { HttpRequestSpec, HttpResponseSink } from './forwarding/http-requests';

/** How to reach an exec-server. */
export type TransportSpec =
  | {
      kind: 'ws';
      /** ws://HOST:PORT or wss://HOST:PORT */
      url: string;
      /**
       * wss only: the server certificate's SHA-256 fingerprint (hex, colons optional). When set,
       * it replaces CA validation: exactly this certificate is accepted, any other fails hard.
       */
      tlsFingerprint?: string;
      /** Sent as `Authorization: Bearer <token>`. */
      token?: string;
      /** Read (trimmed) at each connect if `token` is not given. */
      tokenFile?: string;
    }
  | {
      kind: 'stdio';
      /** Program and arguments, e.g. ['ssh', 'host', 'tether', 'exec-server', '--listen', 'stdio']. */
      command: string[];
      cwd?: string;
      env?: Record<string, string>;
    }
  | {
      /** A host reached with the system OpenSSH client; Tether installs and starts its server there. */
      kind: 'ssh';
      /** A Host alias of ~/.ssh/config, or [user@]host. */
      destination: string;
      port?: number;
      /** Extra ssh arguments, e.g. ['-o', 'ProxyJump=bastion'] or ['-i', '~/.ssh/work']. */
      sshOptions?: string[];
      /** A node of the user's own on the host (≥ 20), instead of the host's PATH or our runtime. */
      remoteNodePath?: string;
      /** How long the host's daemon keeps the session after the link drops (default 3 h). */
      sessionTtlMs?: number;
    }
  | {
      /** A running container reached with `ENGINE exec -i`; Tether installs and starts its server inside. */
      kind: 'container';
      engine: 'podman' | 'docker';
      /** The engine's CLI (default: `podman` or `docker` on the PATH, of the host when `host` is set). */
      enginePath?: string;
      /** The container's name or id. */
      container: string;
      /** The SSH host the engine runs on, as for kind ssh (ssh arguments in sshOptions). */
      host?: { destination: string; port?: number; sshOptions?: string[] };
      /** A node of the user's own inside the container (≥ 20), instead of our runtime. */
      remoteNodePath?: string;
      /** How long the container's daemon keeps the session after the link drops (default 3 h). */
      sessionTtlMs?: number;
    }
  | {
      /** A target reached through a command prefix that runs argv there with our stdio. */
      kind: 'exec';
      /** The prefix, e.g. ['kubectl', 'exec', '-i', 'pod', '--']; `/bin/sh -c SCRIPT` follows it. */
      prefix: string[];
      /** A node of the user's own on the target (≥ 20), instead of our runtime. */
      remoteNodePath?: string;
      /** How long the target's daemon keeps the session after the link drops (default 3 h). */
      sessionTtlMs?: number;
    };

/** Connection state of one environment's logical session. */
export type ConnectionState =
  | { kind: 'idle' }
  | { kind: 'connecting'; since: number }
  | { kind: 'connected'; since: number; sessionId: string }
  | {
      kind: 'reconnecting';
      since: number;
      /** 1 for the first attempt of this outage. */
      attempt: number;
      /** Epoch ms of the next attempt, or null while an attempt is in flight. */
      nextRetryAt: number | null;
      /** Why the link was lost or why the last attempt failed. */
      reason: string;
      /**
       * Epoch ms until which the server holds the session: its advertised lifetime after our last
       * contact. Null when the server does not advertise one (codex keeps a detached session ~80 s).
       */
      sessionHeldUntil: number | null;
      /**
       * Epoch ms after which the client stops trying: the session's lifetime plus a margin, or the
       * caller's give-up (`recoveryDeadlineMs`). Null: it keeps trying until the server says the
       * session is gone, or the client is closed.
       */
      deadlineAt: number | null;
    }
  | {
      kind: 'failed';
      since: number;
      reason: string;
      code: ClientErrorCode;
      /**
       * Set when the session is gone (code unknownSession): when it ended on the server (its
       * held-until time, or when the client learnt it). Its processes ended with it.
       */
      expiredAt?: number;
    }
  | { kind: 'closed'; since: number };

export type ClientErrorCode =
  | 'auth'
  | 'certificate'
  | 'unknownSession'
  | 'recoveryDeadline'
  | 'protocol'
  | 'transport'
  | 'timeout'
  | 'closed'
  | 'disconnected'
  | 'rpc'
  | 'tooManyPendingCalls'
  | 'unsupported'
  | 'invalidArgument'
  | 'aborted'
  /** The user cancelled a prompt the connect needed (an SSH password, a host key question). */
  | 'cancelled'
  /** An SSH host Tether cannot serve as it is (unsupported platform, no space, a failed install). */
  | 'hostSetup'
  /** The environment's container is not running (stopped, exited, paused): starting it is up to the user. */
  | 'containerStopped'
  /** The environment's container no longer exists (removed). */
  | 'containerGone'
  /** A rename or placement refused because its destination exists. */
  | 'exists'
  /** A name a server sent that cannot become a local path (see files/entry-names.ts). */
  | 'unsafeName'
  /** A server sent a file of another size than it said (it says so in getMetadata). */
  | 'sizeMismatch'
  /** A server's folder listing went past a download's limits (WALK_MAX_* in constants.ts). */
  | 'tooLarge';

/** A state change kept in the bounded history shown by the health panel. */
export interface StateChange {
  at: number;
  /** A state entered, or `stalled`: a connected link stopped answering (its end is `connected` again). */
  state: ConnectionState['kind'] | 'stalled';
  reason?: string;
}

/** Link health, sampled while connected. Thresholds are documented in docs/client.md. */
export interface HealthSnapshot {
  /** Round-trip samples of the recent window: [epoch ms, rtt ms]. */
  rttSamples: Array<[number, number]>;
  rttP50Ms: number | null;
  rttP95Ms: number | null;
  lastRttMs: number | null;
  /** Epoch ms of the last byte received from the server. */
  lastContactAt: number | null;
  degraded: boolean;
  stalled: boolean;
  /**
   * While stalled: when the client drops the link and resumes the session on a new one unless a
   * reply comes first. Null when not stalled, or when the link cannot be replaced without losing
   * its session (a stdio server); only a link with a time here is offered *Reconnect now*.
   */
  stallReconnectAt: number | null;
  reconnectCount: number;
  history: StateChange[];
  thresholds: { degradedRttMs: number; stalledAfterMs: number };
}

/** Ordered per-process events, as ProcessSession delivers them (each seq exactly once, ascending). */
export type ProcessEvent =
  | { kind: 'output'; seq: number; stream: OutputStream; data: Uint8Array }
  | { kind: 'exited'; seq: number; exitCode: number }
  | { kind: 'closed'; seq: number }
  /** Seqs [fromSeq, toSeq] are gone: the server no longer retained them when we recovered. */
  | { kind: 'gap'; fromSeq: number; toSeq: number; at: number }
  /** The process can no longer be followed (e.g. the client failed); terminal. */
  | { kind: 'failed'; message: string };

export interface ProcessStartOptions {
  argv: string[];
  /** Absolute path on the server (converted to a file:// URI by the client). */
  cwd: string;
  env?: Record<string, string>;
  /** Inherit the server's environment with these overrides (uses envPolicy inherit 'all'). */
  inheritEnv?: boolean;
  tty: boolean;
  pipeStdin?: boolean;
  arg0?: string;
  size?: TerminalSize;
  /** Request server-side flow control (used only if the server advertises it). */
  outputWindowBytes?: number;
  /** Chosen by the client if absent. */
  processId?: string;
}

/** Following a process that an earlier client of the same session started (an app restart). */
export interface AttachProcessOptions {
  /** Deliver events after this seq (default 0: everything the server still retains, gaps shown). */
  afterSeq?: number;
  /** The process was started with an output window on a server with flow control. */
  flowControl?: boolean;
  /**
   * That window, if known (implies flowControl): acknowledgements then go a few per window. Without
   * it they go after every small step, which suits any window.
   */
  outputWindowBytes?: number;
  /** The process runs under a terminal (closing its stdin then sends the EOF character). */
  tty?: boolean;
}

export interface ProcessHandle {
  readonly processId: string;
  readonly pid: number | null;
  /** Last seq delivered to subscribers (0 before any). */
  readonly lastDeliveredSeq: number;
  readonly exitCode: number | null;
  readonly closed: boolean;
  /**
   * Replays the events delivered while nobody listened with seq > afterSeq (default: all of them,
   * gaps included), then live events. Events a listener received are not kept for later ones: a
   * later subscriber asking for them gets a gap. Returns an unsubscribe function.
   */
  subscribe(listener: (event: ProcessEvent) => void, options?: { afterSeq?: number }): () => void;
  /** Exactly-once across reconnects (same writeId retried). */
  write(data: Uint8Array | string): Promise<WriteStatus>;
  /**
   * Ends the process's input after every write queued before it, once: with `process/closeStdin`
   * when the server has it, else by the terminal's EOF character under a tty. Rejects with
   * ClientError code 'unsupported' for a pipe process on a server without it (codex).
   */
  closeStdin(): Promise<WriteStatus>;
  signal(signal: ProcessSignalName): Promise<void>;
  terminate(): Promise<{ running: boolean }>;
  /** Rejects with ClientError code 'unsupported' if the server lacks `process/resize`. */
  resize(size: TerminalSize): Promise<void>;
  /** Flow control: cumulative output bytes the consumer has processed. No-op without server support. */
  acknowledge(consumedBytes: number): void;
  /** Stop routing and forget retained events (after closed, or when the app drops the process). */
  dispose(): void;
}

export interface RemoteFileSystemApi {
  readDirectory(path: string): Promise<FsDirectoryEntry[]>;
  getMetadata(path: string): Promise<FsMetadata>;
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array): Promise<void>;
  createDirectory(path: string, options?: { recursive?: boolean }): Promise<void>;
  remove(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  copy(sourcePath: string, destinationPath: string, options: { recursive: boolean }): Promise<void>;
  /**
   * Moves a file or folder (fs/rename where advertised, else copy + remove). An existing
   * destination is refused with code `exists` unless `overwrite` is set.
   */
  rename(sourcePath: string, destinationPath: string, options?: { overwrite?: boolean }): Promise<void>;
  /**
   * Puts a complete staged file in place of `destinationPath` (see RemoteFileSystem.placeStaged);
   * an existing destination is refused with code `exists` unless `overwrite` is set.
   */
  placeStaged(stagedPath: string, destinationPath: string, options: { overwrite: boolean }): Promise<void>;
  /** Whether anything (a file, folder or link, even a dangling one) exists at `path`. */
  exists(path: string): Promise<boolean>;
  canonicalize(path: string): Promise<string>;
  /**
   * Streaming read in blocks (≤ 1 MiB) through fs/open + fs/readBlock; honours the abort signal.
   * With `expectedBytes` (the size the server declared), nothing past it reaches `onChunk`, and a
   * file longer or shorter than that fails with code `sizeMismatch`.
   */
  readStream(
    path: string,
    onChunk: (chunk: Uint8Array, offset: number) => void | Promise<void>,
    options?: ReadStreamOptions,
  ): Promise<{ bytes: number }>;
  /**
   * Streaming write (replace mode) through fs/open + fs/writeBlock; honours the abort signal and
   * rides out reconnects (see RemoteFileSystem.writeStream).
   */
  writeStream(
    path: string,
    source: AsyncIterable<Uint8Array>,
    options?: WriteStreamOptions,
  ): Promise<{ bytes: number }>;
}

export interface ReadStreamOptions {
  blockSize?: number;
  signal?: AbortSignal;
  /** The file's size as the server declared it: a download believes no more than that. */
  expectedBytes?: number;
}

export interface WriteStreamOptions {
  signal?: AbortSignal;
  /** Bytes written so far; drops back to 0 when the write starts over. */
  onProgress?: (bytes: number) => void;
  /**
   * A fresh pass over the whole source from byte 0. Used after a reconnect on a server that cannot
   * reopen a file without truncating it (no `tetherFsUpdate`); without it such an upload fails.
   */
  rewind?: () => AsyncIterable<Uint8Array>;
}

export interface CloseOptions {
  /**
   * This session will not be resumed (a one-shot command is done): the server forgets it now, with
   * `session/end`, instead of keeping its finished processes until the session TTL. Its processes
   * still running are killed. Skipped where the link is down or the server lacks the extension
   * (capability `tetherSessionEnd`): the session then waits out its TTL as before.
   */
  endSession?: boolean;
}

export interface ExecServerClientApi {
  readonly state: ConnectionState;
  onStateChange(listener: (state: ConnectionState) => void): () => void;
  /** Connects (lazily, shared by all callers) and resolves once the session is usable. */
  connect(): Promise<void>;
  readonly environmentInfo: EnvironmentInfo | null;
  hasCapability(name: string): boolean;
  health(): HealthSnapshot;
  onHealthChange(listener: (health: HealthSnapshot) => void): () => void;
  startProcess(options: ProcessStartOptions): Promise<ProcessHandle>;
  /** The logical session's id once known (the one to resume after an app restart). */
  readonly currentSessionId: string | null;
  /**
   * Follows a process this session already runs (started before an app restart): re-reads its
   * retained output after `afterSeq`, then delivers live events. A process the server no longer
   * knows ends in a `failed` event.
   */
  attachProcess(processId: string, options?: AttachProcessOptions): Promise<ProcessHandle>;
  readonly fs: RemoteFileSystemApi;
  /**
   * The other sessions of this credential and their processes (capability
   * `tetherSessionProcesses`); these reject with ClientError 'unsupported' on servers without it.
   */
  listSessions(): Promise<SessionSummary[]>;
  /** Calls `listener` when a process of another session starts, exits or closes; returns the unsubscribe. */
  watchSessions(listener: (change: SessionProcessChangedNotification) => void): Promise<() => void>;
  /** Follows another session's process from its first retained output; the handle drives it. */
  attachOtherProcess(
    sessionId: string,
    processId: string,
    options?: { tty?: boolean },
  ): Promise<ProcessHandle>;
  /** Moves an attached process (by its handle's id) under this session. */
  keepProcess(attachId: string): Promise<void>;
  /** Stops following an attached process; it runs on under its owner. */
  detachOtherProcess(handle: ProcessHandle): Promise<void>;
  /**
   * Pipes a local socket (paused, allowHalfOpen) to a TCP port on the host's loopback through a
   * `tetherStreams` stream; waits for the link until `signal` aborts. See forwarding/stream-mux.ts.
   */
  pipeStream(socket: Socket, target: StreamTarget, signal?: AbortSignal): Promise<StreamOpenResult>;
  /**
   * How the server forwards ports: `streams` (tetherStreams), or `http` (codex's http/request, plain
   * HTTP only); rejects with 'unsupported' when neither. Waits for the link until `signal` aborts.
   */
  forwardingMode(signal?: AbortSignal): Promise<ForwardingMode>;
  /** codex's http/request on a dedicated second connection, its response streamed into `sink`. */
  httpRequest(spec: HttpRequestSpec, sink: HttpResponseSink, signal?: AbortSignal): Promise<void>;
  /**
   * The host's listening TCP ports with their processes (capability `tetherListeningPorts`);
   * rejects with ClientError 'unsupported' on servers without it (codex).
   */
  listeningPorts(): Promise<ListeningPortEntry[]>;
  /** Skip the backoff wait: retry now if reconnecting (or reconnect a failed client). */
  reconnectNow(): void;
  /**
   * Closes the connection and stops reconnecting. Remote processes keep running on the server; a
   * server the client started itself (stdio) has exited when this settles.
   */
  close(options?: CloseOptions): Promise<void>;
}
