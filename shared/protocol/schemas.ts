// Runtime schemas (zod) for every message of the exec-server protocol. Both the server (inbound
// params) and the client (inbound results and notifications) validate at the boundary with these.
// Objects ignore unknown members, as codex does, so newer peers stay compatible.
import { z } from 'zod';

/** Unsigned integer as codex's u64 fields accept it. */
const u64 = z.number().int().nonnegative();
const base64 = z.string();
/**
 * A byte field that may travel raw: base64 text in JSON, or the bytes themselves once binary data
 * frames (capability `tetherBinaryFrames`) are negotiated on the connection.
 */
const wireBytes = z.union([base64, z.custom<Uint8Array>((value) => value instanceof Uint8Array)]);
export type WireBytes = z.infer<typeof wireBytes>;
/** Absolute `file://` URI. Parsed further by whoever resolves it. */
const PathUri = z.string();

// ── Envelope ────────────────────────────────────────────────────────────────────────────────

export const RequestId = z.union([z.number().int(), z.string()]);
export type RequestId = z.infer<typeof RequestId>;

export const RpcErrorObject = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type RpcErrorObject = z.infer<typeof RpcErrorObject>;

// ── Handshake and environment ───────────────────────────────────────────────────────────────

export const InitializeParams = z.object({
  clientName: z.string(),
  resumeSessionId: z.string().nullish(),
  /** Tether extension: the client asks for binary data frames on this connection. */
  tetherBinaryFrames: z.boolean().optional(),
});
export type InitializeParams = z.infer<typeof InitializeParams>;

const ShellInfo = z.looseObject({ name: z.string(), path: z.string() });

export const EnvironmentInfo = z.looseObject({
  shell: ShellInfo.optional(),
  executorVersion: z.string().optional(),
  providerId: z.string().nullish(),
  cwd: PathUri.optional(),
  userHomeDir: PathUri.nullish(),
  platformOs: z.string().optional(),
  prependPathDirs: z.array(PathUri).optional(),
  temporaryDirectories: z.array(PathUri).optional(),
  tempDir: PathUri.nullish(),
  capabilities: z.record(z.string(), z.unknown()).optional(),
});
export type EnvironmentInfo = z.infer<typeof EnvironmentInfo>;

export const InitializeResult = z.looseObject({
  sessionId: z.string(),
  /** Tether extension: true when the server agreed to binary data frames on this connection. */
  tetherBinaryFrames: z.boolean().optional(),
  environmentInfo: EnvironmentInfo.optional(),
});
export type InitializeResult = z.infer<typeof InitializeResult>;

export const EnvironmentStatusResult = z.looseObject({ status: z.string() });
export type EnvironmentStatusResult = z.infer<typeof EnvironmentStatusResult>;

/** Methods without params accept an absent `params`, `null`, or `{}`. */
export const NoParams = z.union([z.null(), z.undefined(), z.object({})]);

// ── Processes ───────────────────────────────────────────────────────────────────────────────

export const EnvPolicy = z.object({
  inherit: z.enum(['all', 'core', 'none']),
  ignoreDefaultExcludes: z.boolean(),
  exclude: z.array(z.string()),
  set: z.record(z.string(), z.string()),
  includeOnly: z.array(z.string()),
});
export type EnvPolicy = z.infer<typeof EnvPolicy>;

export const TerminalSize = z.object({
  cols: z.number().int().min(1).max(10_000),
  rows: z.number().int().min(1).max(10_000),
});
export type TerminalSize = z.infer<typeof TerminalSize>;

export const ProcessStartParams = z.object({
  processId: z.string(),
  argv: z.array(z.string()),
  cwd: PathUri,
  env: z.record(z.string(), z.string()),
  tty: z.boolean(),
  pipeStdin: z.boolean().nullish(),
  arg0: z.string().nullish(),
  envPolicy: EnvPolicy.nullish(),
  sandbox: z.unknown().optional(),
  /** Tether extension: initial terminal size for tty processes. */
  size: TerminalSize.nullish(),
  /** Tether extension: unacknowledged output bytes after which the server stops reading the process. */
  outputWindowBytes: z.number().int().positive().nullish(),
});
export type ProcessStartParams = z.infer<typeof ProcessStartParams>;

export const ProcessStartResult = z.looseObject({
  processId: z.string(),
  sandboxType: z.string().optional(),
  /** Tether extension (capability `tetherProcessPid`). */
  pid: z.number().int().optional(),
});
export type ProcessStartResult = z.infer<typeof ProcessStartResult>;

export const OutputStream = z.enum(['stdout', 'stderr', 'pty']);
export type OutputStream = z.infer<typeof OutputStream>;

export const ProcessReadParams = z.object({
  processId: z.string(),
  afterSeq: u64.nullish(),
  maxBytes: u64.nullish(),
  waitMs: u64.nullish(),
});
export type ProcessReadParams = z.infer<typeof ProcessReadParams>;

const OutputChunk = z.object({ seq: u64, stream: OutputStream, chunk: wireBytes });
export type OutputChunk = z.infer<typeof OutputChunk>;

export const ProcessReadResult = z.looseObject({
  chunks: z.array(OutputChunk),
  nextSeq: u64,
  exited: z.boolean(),
  exitCode: z.number().int().nullish(),
  closed: z.boolean(),
  failure: z.string().nullish(),
  sandboxDenied: z.boolean().optional(),
});
export type ProcessReadResult = z.infer<typeof ProcessReadResult>;

export const ProcessWriteParams = z.object({ processId: z.string(), chunk: wireBytes, writeId: z.string() });
export type ProcessWriteParams = z.infer<typeof ProcessWriteParams>;

export const WriteStatus = z.enum(['accepted', 'unknownProcess', 'stdinClosed', 'starting']);
export type WriteStatus = z.infer<typeof WriteStatus>;
export const ProcessWriteResult = z.looseObject({ status: WriteStatus });
export type ProcessWriteResult = z.infer<typeof ProcessWriteResult>;
/** `accepted`: stdin is closed now (or was by an earlier call); `stdinClosed`: it never was open. */
export const ProcessCloseStdinResult = z.looseObject({ status: WriteStatus });
export type ProcessCloseStdinResult = z.infer<typeof ProcessCloseStdinResult>;

/** `interrupt` is codex's only signal; the rest are Tether's extension (capability `tetherSignals`). */
export const ExtendedSignal = z.enum([
  'interrupt',
  'terminate',
  'kill',
  'hangup',
  'quit',
  'suspend',
  'continue',
]);
export type ProcessSignalName = z.infer<typeof ExtendedSignal>;
export const ProcessSignalParams = z.object({ processId: z.string(), signal: ExtendedSignal });
export type ProcessSignalParams = z.infer<typeof ProcessSignalParams>;

export const ProcessIdParams = z.object({ processId: z.string() });
export type ProcessIdParams = z.infer<typeof ProcessIdParams>;
export const ProcessTerminateResult = z.looseObject({ running: z.boolean() });
export type ProcessTerminateResult = z.infer<typeof ProcessTerminateResult>;

export const ProcessResizeParams = z.object({
  processId: z.string(),
  cols: TerminalSize.shape.cols,
  rows: TerminalSize.shape.rows,
});
export type ProcessResizeParams = z.infer<typeof ProcessResizeParams>;

/** Cumulative count of output bytes (decoded) the client has consumed for a process. */
export const ProcessAckParams = z.object({ processId: z.string(), consumedBytes: u64 });
export type ProcessAckParams = z.infer<typeof ProcessAckParams>;

// ── Sessions of the same principal (Tether extension `tetherSessionProcesses`) ────────────────

export const ProcessState = z.enum(['running', 'exited', 'closed']);
export type ProcessState = z.infer<typeof ProcessState>;

/** One process as `session/list` and `process/attach` describe it. */
export const ProcessSummary = z.looseObject({
  processId: z.string(),
  argv: z.array(z.string()),
  /** Absolute path on the server. */
  cwd: z.string(),
  tty: z.boolean(),
  state: ProcessState,
  /** Epoch ms on the server's clock. */
  startedAt: z.number(),
  exitCode: z.number().int().nullable(),
  pid: z.number().int(),
});
export type ProcessSummary = z.infer<typeof ProcessSummary>;

export const SessionSummary = z.looseObject({
  sessionId: z.string(),
  /** `clientName` of the session's latest `initialize`. */
  clientName: z.string(),
  /** A connection is attached to it now. */
  attached: z.boolean(),
  /** The session of the connection that asked. */
  current: z.boolean(),
  processes: z.array(ProcessSummary),
});
export type SessionSummary = z.infer<typeof SessionSummary>;

export const SessionListResult = z.looseObject({ sessions: z.array(SessionSummary) });
export type SessionListResult = z.infer<typeof SessionListResult>;

export const ProcessAttachParams = z.object({
  sessionId: z.string(),
  processId: z.string(),
  /** The id the process has in the attaching session (for read, write, resize, signal, keep). */
  attachId: z.string().min(1),
});
export type ProcessAttachParams = z.infer<typeof ProcessAttachParams>;

export const SessionProcessChangedNotification = z.looseObject({
  sessionId: z.string(),
  clientName: z.string(),
  processId: z.string(),
  state: ProcessState,
});
export type SessionProcessChangedNotification = z.infer<typeof SessionProcessChangedNotification>;

// ── Process notifications ───────────────────────────────────────────────────────────────────

export const ProcessOutputNotification = z.looseObject({
  processId: z.string(),
  seq: u64,
  stream: OutputStream,
  chunk: wireBytes,
});
export type ProcessOutputNotification = z.infer<typeof ProcessOutputNotification>;

export const ProcessExitedNotification = z.looseObject({
  processId: z.string(),
  seq: u64,
  exitCode: z.number().int(),
  sandboxDenied: z.boolean().optional(),
});
export type ProcessExitedNotification = z.infer<typeof ProcessExitedNotification>;

export const ProcessClosedNotification = z.looseObject({ processId: z.string(), seq: u64 });
export type ProcessClosedNotification = z.infer<typeof ProcessClosedNotification>;

// ── Streams (Tether extension `tetherStreams`) ──────────────────────────────────────────────

/** A TCP port number. */
const Port = z.number().int().min(1).max(65535);

export const StreamOpenParams = z.object({
  /** Chosen by the client, unique among its open streams on this connection. */
  streamId: z.string().min(1).max(128),
  /** `localhost` or a loopback literal (127.0.0.0/8, ::1); anything else is refused. */
  host: z.string().min(1).max(255),
  port: Port,
  /** Bytes the server may send on this stream before the client returns credit. */
  windowBytes: u64.min(1),
});
export type StreamOpenParams = z.infer<typeof StreamOpenParams>;

export const StreamOpenResult = z.looseObject({
  /** Bytes the client may send before the server returns credit. */
  windowBytes: u64.min(1),
  /** The address the server connected to (`127.0.0.1` or `::1` for `localhost`). */
  address: z.string(),
});
export type StreamOpenResult = z.infer<typeof StreamOpenResult>;

export const StreamDataParams = z.looseObject({ streamId: z.string(), data: wireBytes });
export type StreamDataParams = z.infer<typeof StreamDataParams>;
/** `bytes` more of the receiver's window are free again: they were written out on its side. */
export const StreamCreditParams = z.looseObject({ streamId: z.string(), bytes: u64.min(1) });
export type StreamCreditParams = z.infer<typeof StreamCreditParams>;
export const StreamEndParams = z.looseObject({ streamId: z.string() });
export type StreamEndParams = z.infer<typeof StreamEndParams>;
export const StreamResetParams = z.looseObject({ streamId: z.string(), message: z.string().optional() });
export type StreamResetParams = z.infer<typeof StreamResetParams>;

// ── HTTP (codex's `http/request`; Tether's server does not serve it) ──────────────────────────

export const HttpHeader = z.object({ name: z.string(), value: z.string() });
export type HttpHeader = z.infer<typeof HttpHeader>;

export const HttpRequestParams = z.object({
  method: z.string().min(1),
  /** http or https only. */
  url: z.string(),
  /** Chosen by the client; names the `http/request/bodyDelta` notifications of a streamed body. */
  requestId: z.string().min(1),
  /** In order, repeats kept. */
  headers: z.array(HttpHeader).optional(),
  /** The whole request body (codex takes no streamed request body). */
  bodyBase64: base64.optional(),
  /** Covers the whole exchange, streamed body included; null or absent: none. */
  timeoutMs: u64.nullable().optional(),
  redirectPolicy: z.enum(['follow', 'stop']).optional(),
  /** The result comes once the response headers are in; the body follows as notifications. */
  streamResponse: z.boolean().optional(),
});
export type HttpRequestParams = z.infer<typeof HttpRequestParams>;

export const HttpRequestResult = z.looseObject({
  status: z.number().int().min(100).max(999),
  headers: z.array(HttpHeader),
  bodyBase64: base64,
});
export type HttpRequestResult = z.infer<typeof HttpRequestResult>;

export const HttpBodyDeltaParams = z.looseObject({
  requestId: z.string(),
  seq: u64.min(1),
  deltaBase64: base64,
  done: z.boolean(),
  error: z.string().nullable().optional(),
});
export type HttpBodyDeltaParams = z.infer<typeof HttpBodyDeltaParams>;

// ── Filesystem ──────────────────────────────────────────────────────────────────────────────

const sandboxField = { sandbox: z.unknown().optional() };

export const FsPathParams = z.object({ path: PathUri, ...sandboxField });
export type FsPathParams = z.infer<typeof FsPathParams>;

export const FsReadFileResult = z.looseObject({ dataBase64: base64 });
export const FsWriteFileParams = z.object({ path: PathUri, dataBase64: z.string(), ...sandboxField });
export type FsWriteFileParams = z.infer<typeof FsWriteFileParams>;
export const FsCreateDirectoryParams = z.object({
  path: PathUri,
  recursive: z.boolean().nullish(),
  ...sandboxField,
});
export type FsCreateDirectoryParams = z.infer<typeof FsCreateDirectoryParams>;

export const FsMetadata = z.looseObject({
  isDirectory: z.boolean(),
  isFile: z.boolean(),
  isSymlink: z.boolean(),
  size: u64,
  createdAtMs: z.number(),
  modifiedAtMs: z.number(),
});
export type FsMetadata = z.infer<typeof FsMetadata>;

export const FsDirectoryEntry = z.looseObject({
  fileName: z.string(),
  isDirectory: z.boolean(),
  isFile: z.boolean(),
});
export type FsDirectoryEntry = z.infer<typeof FsDirectoryEntry>;
export const FsReadDirectoryResult = z.looseObject({ entries: z.array(FsDirectoryEntry) });
export type FsReadDirectoryResult = z.infer<typeof FsReadDirectoryResult>;

export const FsRemoveParams = z.object({
  path: PathUri,
  recursive: z.boolean().nullish(),
  force: z.boolean().nullish(),
  ...sandboxField,
});
export type FsRemoveParams = z.infer<typeof FsRemoveParams>;

export const FsCopyParams = z.object({
  sourcePath: PathUri,
  destinationPath: PathUri,
  recursive: z.boolean(),
  ...sandboxField,
});
export type FsCopyParams = z.infer<typeof FsCopyParams>;

/** Tether extension (capability `tetherFsRename`). */
export const FsRenameParams = z.object({
  sourcePath: PathUri,
  destinationPath: PathUri,
  /** Capability `tetherFsRenameOptions`: refuse an existing destination instead of replacing it. */
  noReplace: z.boolean().nullish(),
  /** Capability `tetherFsRenameOptions`: the replaced destination's mode (and owner) carry over. */
  keepDestinationMode: z.boolean().nullish(),
  ...sandboxField,
});
export type FsRenameParams = z.infer<typeof FsRenameParams>;

export const FsCanonicalizeResult = z.looseObject({ path: PathUri });

export const FsWalkParams = z.object({
  path: PathUri,
  options: z.object({
    maxDepth: u64,
    maxDirectories: u64,
    maxEntries: u64,
    followDirectorySymlinks: z.boolean(),
    pruneHiddenDirectories: z.boolean().nullish(),
  }),
  ...sandboxField,
});
export type FsWalkParams = z.infer<typeof FsWalkParams>;
export const FsWalkResult = z.looseObject({
  entries: z.array(z.looseObject({ path: PathUri, kind: z.string() })),
  errors: z.array(z.unknown()),
  truncated: z.boolean(),
});
export type FsWalkResult = z.infer<typeof FsWalkResult>;

export const FsOpenParams = z.object({
  handleId: z.string(),
  path: PathUri,
  mode: z.enum(['read', 'replace', 'update']).nullish(),
  ...sandboxField,
});
export type FsOpenParams = z.infer<typeof FsOpenParams>;
export const FsOpenResult = z.looseObject({ handleId: z.string() });

export const FsReadBlockParams = z.object({ handleId: z.string(), offset: u64, len: u64 });
export type FsReadBlockParams = z.infer<typeof FsReadBlockParams>;
export const FsReadBlockResult = z.looseObject({ chunk: wireBytes, eof: z.boolean() });
export type FsReadBlockResult = z.infer<typeof FsReadBlockResult>;

export const FsWriteBlockParams = z.object({ handleId: z.string(), offset: u64, chunk: wireBytes });
export type FsWriteBlockParams = z.infer<typeof FsWriteBlockParams>;

export const FsHandleParams = z.object({ handleId: z.string() });
export type FsHandleParams = z.infer<typeof FsHandleParams>;

export const EmptyResult = z.looseObject({});

/** Largest block `fs/readBlock` and `fs/writeBlock` accept (1 MiB). */
export const MAX_FS_BLOCK_BYTES = 1_048_576;

// ── Listening ports (Tether extension `tetherListeningPorts`) ────────────────────────────────

export const ListeningPortEntry = z.looseObject({
  port: Port,
  /** The process that listens, when the server may see it (another user's is not). */
  pid: z.number().int().positive().nullable(),
  /** Its command name (`/proc/<pid>/comm`, lsof's command): `node`, `vite`. */
  name: z.string().max(256).nullable(),
  /** Its parent, the parent's parent, … up to init (at most 32): to tell a client's processes' descendants. */
  parentPids: z.array(z.number().int().positive()).max(64),
});
export type ListeningPortEntry = z.infer<typeof ListeningPortEntry>;

export const PortsListeningResult = z.looseObject({ ports: z.array(ListeningPortEntry).max(4096) });
export type PortsListeningResult = z.infer<typeof PortsListeningResult>;
