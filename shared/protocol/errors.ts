// JSON-RPC error codes used by the exec-server protocol, with codex's meanings.

export const ErrorCode = {
  /** Undecodable message (sent with id -1), handshake-order, unknown process/session, fs validation. */
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  /** OS errors other than not-found, and spawn failures (with `data.kind`). */
  internal: -32603,
  notFound: -32004,
  /** Resume of a session that is still attached to another connection. */
  alreadyAttached: -32010,
  /** Used by relay layers for "JSON-RPC transport closed". Never sent by a local server. */
  transportClosed: -32000,
} as const;

/** `data.kind` of a -32603 process-start failure. */
export const SpawnFailureKind = {
  notFound: 'spawnNotFound',
  permissionDenied: 'spawnPermissionDenied',
  failed: 'spawnFailed',
  sandboxUnavailable: 'sandboxUnavailable',
  sandboxPreparation: 'sandboxPreparation',
} as const;
export type SpawnFailureKindValue = (typeof SpawnFailureKind)[keyof typeof SpawnFailureKind];

/**
 * `data.kind` Tether's server attaches to the -32600 for a process id its session does not know
 * (never started, or already reaped); the message stays codex's. Codex 0.171.0 sends no `data`.
 */
export const ProcessErrorKind = {
  unknownProcess: 'unknownProcess',
} as const;

/**
 * `data.kind` Tether's server attaches to the fs errors a client acts on; the code and message stay
 * codex's. Codex 0.171.0 sends no `data`, and has no fs/rename.
 */
export const FsErrorKind = {
  /** The -32004 for a block operation on a handle this connection does not hold (as after a reconnect). */
  unknownFileHandle: 'unknownFileHandle',
  /** The -32603 of an fs/rename with `noReplace` whose destination is taken. */
  exists: 'exists',
} as const;

/**
 * `data.kind` of a failed `stream/open` (-32603): nothing listens on the port, the target is not a
 * loopback address, or the connect failed otherwise (timeout, unreachable).
 */
export const StreamErrorKind = {
  refused: 'connectionRefused',
  notLoopback: 'notLoopback',
  failed: 'connectFailed',
} as const;
export type StreamErrorKindValue = (typeof StreamErrorKind)[keyof typeof StreamErrorKind];

/**
 * `data.kind` of the -32600 Tether's server answers when a request would pass one of its resource
 * caps (sessions, processes, open files, queued requests, fs/readFile size); `data.limit` names it.
 */
export const LIMIT_EXCEEDED_KIND = 'limitExceeded';

/** Id used in error responses to messages whose own id could not be decoded. */
export const UNDECODABLE_MESSAGE_ID = -1;
