// Names of every JSON-RPC method and notification of the exec-server protocol, defined once.
// Codex methods come first; Tether's extensions follow and are used only when advertised.

export const Method = {
  initialize: 'initialize',
  environmentInfo: 'environment/info',
  environmentStatus: 'environment/status',
  processStart: 'process/start',
  processRead: 'process/read',
  processWrite: 'process/write',
  processSignal: 'process/signal',
  processTerminate: 'process/terminate',
  fsReadFile: 'fs/readFile',
  fsWriteFile: 'fs/writeFile',
  fsCreateDirectory: 'fs/createDirectory',
  fsGetMetadata: 'fs/getMetadata',
  fsReadDirectory: 'fs/readDirectory',
  fsRemove: 'fs/remove',
  fsCopy: 'fs/copy',
  fsCanonicalize: 'fs/canonicalize',
  fsWalk: 'fs/walk',
  fsOpen: 'fs/open',
  fsReadBlock: 'fs/readBlock',
  fsWriteBlock: 'fs/writeBlock',
  fsClose: 'fs/close',
  /**
   * Codex's (not served by Tether's server, which answers -32601): an HTTP request the server makes
   * on the client's behalf. Tether's port forwarding falls back to it against codex servers.
   */
  httpRequest: 'http/request',
  /** Tether extension (capability `tetherProcessResize`). */
  processResize: 'process/resize',
  /** Tether extension (capability `tetherFsRename`): atomic rename within one filesystem. */
  fsRename: 'fs/rename',
  /** Tether extension (capability `tetherCloseStdin`): end a process's input. */
  processCloseStdin: 'process/closeStdin',
  /** Tether extension (capability `tetherSessionProcesses`): the principal's sessions and processes. */
  sessionList: 'session/list',
  /** Tether extension (capability `tetherSessionProcesses`): ask for `session/processChanged`. */
  sessionSubscribe: 'session/subscribe',
  /** Tether extension (capability `tetherSessionProcesses`): follow another session's process here. */
  processAttach: 'process/attach',
  /** Tether extension (capability `tetherSessionProcesses`): stop following an attached process. */
  processDetach: 'process/detach',
  /** Tether extension (capability `tetherSessionProcesses`): move an attached process under this session. */
  processKeep: 'process/keep',
  /**
   * Tether extension (capability `tetherSessionEnd`): the caller will not resume its session, so
   * the server forgets it now instead of a session TTL later (a one-shot CLI command's session).
   */
  sessionEnd: 'session/end',
  /** Tether extension (capability `tetherStreams`): a TCP stream to a loopback port on the host. */
  streamOpen: 'stream/open',
  /** Tether extension (capability `tetherListeningPorts`): the host's listening TCP ports and their processes. */
  portsListening: 'ports/listening',
} as const;

export const Notification = {
  initialized: 'initialized',
  processOutput: 'process/output',
  processExited: 'process/exited',
  processClosed: 'process/closed',
  /** Codex's, server → client: a piece of an `http/request` body asked for with `streamResponse`. */
  httpBodyDelta: 'http/request/bodyDelta',
  /** Tether extension, client → server (capability `tetherFlowControl`). */
  processAck: 'process/ack',
  /**
   * Tether extension, server → client (capability `tetherSessionProcesses`), after
   * `session/subscribe`: a process of another session of the same principal started, exited or
   * closed.
   */
  sessionProcessChanged: 'session/processChanged',
  /**
   * Tether extension (capability `tetherStreams`), both directions: bytes of an open stream, credit
   * for bytes written out, the sender's end of data (half-close), and an abort of the stream.
   */
  streamData: 'stream/data',
  streamCredit: 'stream/credit',
  streamEnd: 'stream/end',
  streamReset: 'stream/reset',
} as const;

/**
 * Capability flags Tether's server adds to `environmentInfo.capabilities`. A missing flag means
 * false, so clients talking to codex simply never use these.
 */
export const TetherCapability = {
  /** `process/resize` and `size` on `process/start` for tty processes. */
  processResize: 'tetherProcessResize',
  /** `process/signal` accepts terminate, kill, hangup, quit, suspend and continue besides interrupt. */
  extendedSignals: 'tetherSignals',
  /** Per-process output window (`outputWindowBytes` on start) acknowledged with `process/ack`. */
  flowControl: 'tetherFlowControl',
  /** `fs/rename`. */
  fsRename: 'tetherFsRename',
  /**
   * `fs/rename` takes `noReplace` (an existing destination is refused, atomically for files) and
   * `keepDestinationMode` (the file it replaces hands over its permission bits, and its owner where
   * the server may set it), so a staged upload can take an existing file's place safely.
   */
  fsRenameOptions: 'tetherFsRenameOptions',
  /**
   * `fs/open` mode `update`: an existing file opened for writing without truncating it, so an
   * upload cut off by a reconnect continues at its offset on a fresh handle.
   */
  fsUpdate: 'tetherFsUpdate',
  /** Requests on one connection are served concurrently (a long poll blocks nothing). */
  concurrentRequests: 'tetherConcurrentRequests',
  /** `pid` in the `process/start` result. */
  processPid: 'tetherProcessPid',
  /**
   * `process/closeStdin`: ends the stdin pipe, or sends the terminal's EOF character under a tty;
   * at most once per process, so a retry after a reconnect does nothing more.
   */
  closeStdin: 'tetherCloseStdin',
  /**
   * Binary data frames on WebSocket connections (shared/protocol/data-frame.ts): asked for with
   * `tetherBinaryFrames: true` in `initialize`, in force once its result says
   * `tetherBinaryFrames: true`.
   */
  binaryFrames: 'tetherBinaryFrames',
  /**
   * The sessions of the same credential (the principal) and their processes: `session/list`,
   * `session/subscribe` with `session/processChanged`, and `process/attach`, `process/detach`,
   * `process/keep` to watch, drive and adopt a process another client started.
   */
  sessionProcesses: 'tetherSessionProcesses',
  /**
   * `session/end`: ends the connection's session at once. Its processes still running are killed
   * as at the session TTL's expiry, and its finished ones are forgotten.
   */
  sessionEnd: 'tetherSessionEnd',
  /**
   * TCP streams to loopback ports on the host (`stream/open` and the `stream/*` notifications), each
   * with its own credit window: what port forwarding rides on (docs/forwarding.md).
   */
  streams: 'tetherStreams',
  /**
   * `ports/listening`: the TCP ports listening on the host's loopback or any address, each with
   * its process (pid, name, parents) when the server may see it. Linux and macOS hosts only.
   */
  listeningPorts: 'tetherListeningPorts',
} as const;

/**
 * A Tether extension carrying a value instead of a flag: how long (ms) the server keeps a detached
 * session for a resume. A client keeps reconnecting until then; codex advertises none (it keeps 80 s).
 */
export const SESSION_LIFETIME_CAPABILITY = 'tetherSessionTtlMs';

/**
 * Not an extension but a warning in `environmentInfo.capabilities`: the WebSocket listener was
 * started with `--ws-auth none`, so anyone who reaches its port can run programs. Present only then.
 */
export const UNAUTHENTICATED_LISTENER_FLAG = 'tetherUnauthenticatedListener';
