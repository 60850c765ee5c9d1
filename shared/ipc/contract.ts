// The one typed contract between the renderer and the AppService: every command (request →
// response) and every event stream, declared once with zod schemas. The Electron preload bridge,
// the main-process handlers, the web bridge and the renderer client all derive from this object.
import { z } from 'zod';
import { checkSshOption, MAX_SSH_OPTIONS, parseSshTarget } from '../ssh-target';
import { PaneLayout } from './pane-layout';
import { TERMINAL_SETTINGS_SHAPE } from './terminal-settings';

// ── Shared shapes ───────────────────────────────────────────────────────────────────────────

export const EnvironmentId = z.string().min(1).max(100);

/** Bounds of an SSH environment's session lifetime (how long a dropped session waits on the host). */
export const SSH_SESSION_TTL_MIN_MS = 60_000;
export const SSH_SESSION_TTL_MAX_MS = 7 * 24 * 3_600_000;
export const ProcessKey = z.object({ envId: EnvironmentId, processId: z.string().min(1).max(200) });
export type ProcessKey = z.infer<typeof ProcessKey>;

export const EnvironmentKind = z.enum(['local', 'ws', 'command', 'ssh']);
export type EnvironmentKind = z.infer<typeof EnvironmentKind>;

/** Settings per kind. Tokens are write-only: the UI sends one, and only learns whether one is stored. */
export const EnvironmentSettings = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local') }),
  z.object({
    kind: z.literal('ws'),
    url: z.string().min(1).max(2000),
    /**
     * wss only: the pinned SHA-256 fingerprint of the server certificate (see
     * shared/tls-fingerprint.ts). When set it replaces CA validation; absent, the system CAs decide.
     */
    tlsFingerprint: z.string().max(200).optional(),
  }),
  z.object({
    kind: z.literal('command'),
    /** A command line, split like a POSIX shell would (quotes respected), e.g. `ssh host tether exec-server --listen stdio`. */
    commandLine: z.string().min(1).max(4000),
  }),
  z.object({
    kind: z.literal('ssh'),
    /** An alias from ~/.ssh/config or [user@]host, as ssh takes it (see shared/ssh-target.ts). */
    destination: z
      .string()
      .max(320)
      .refine((d) => {
        const parsed = parseSshTarget(d);
        return parsed.ok && parsed.value.destination === d && parsed.value.port === undefined;
      }, 'not an ssh destination (alias or [user@]host, no port, not starting with "-")'),
    port: z.number().int().min(1).max(65_535).optional(),
    /** Extra `Key=Value` options, each given to ssh as `-o Key=Value`. */
    sshOptions: z
      .array(
        z
          .string()
          .max(1000)
          .refine((o) => checkSshOption(o) === null, 'not a Key=Value ssh option'),
      )
      .max(MAX_SSH_OPTIONS)
      .optional(),
    /** A Node (≥ 20) on the host to run the server with, instead of the one Tether finds or installs. */
    remoteNodePath: z.string().min(1).max(1000).startsWith('/').optional(),
    /** How long the host keeps the session (and its processes) after the link drops. */
    sessionTtlMs: z.number().int().min(SSH_SESSION_TTL_MIN_MS).max(SSH_SESSION_TTL_MAX_MS).optional(),
  }),
]);
export type EnvironmentSettings = z.infer<typeof EnvironmentSettings>;

export const EnvironmentDraft = z.object({
  name: z.string().trim().min(1).max(100),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  settings: EnvironmentSettings,
  /** New token (ws kind). `null` clears a stored token; absent keeps it. */
  token: z.string().max(10_000).nullish(),
});
export type EnvironmentDraft = z.infer<typeof EnvironmentDraft>;

const LinkStateKind = z.enum(['idle', 'connecting', 'connected', 'reconnecting', 'failed', 'closed']);
export type LinkStateKind = z.infer<typeof LinkStateKind>;

export const LinkState = z.object({
  kind: LinkStateKind,
  since: z.number(),
  reason: z.string().optional(),
  attempt: z.number().optional(),
  nextRetryAt: z.number().nullable().optional(),
  /** Reconnecting: when the client stops trying; null: until the server says the session is gone. */
  deadlineAt: z.number().nullable().optional(),
  /** Reconnecting: until when the server holds the session; null: the server does not say (codex). */
  sessionHeldUntil: z.number().nullable().optional(),
  /** Failed: the client error's code (e.g. `unknownSession`). */
  code: z.string().optional(),
  /** Failed because the session is gone: when it ended; its processes ended with it. */
  expiredAt: z.number().optional(),
  /** Failed, but the first connect is retried by itself (the server may not be up yet): when next. */
  retryAt: z.number().optional(),
});
export type LinkState = z.infer<typeof LinkState>;

export const HealthView = z.object({
  rttSamples: z.array(z.tuple([z.number(), z.number()])),
  rttP50Ms: z.number().nullable(),
  rttP95Ms: z.number().nullable(),
  lastRttMs: z.number().nullable(),
  lastContactAt: z.number().nullable(),
  degraded: z.boolean(),
  stalled: z.boolean(),
  reconnectCount: z.number(),
  history: z.array(z.object({ at: z.number(), state: z.string(), reason: z.string().optional() })),
  thresholds: z.object({ degradedRttMs: z.number(), stalledAfterMs: z.number() }),
});
export type HealthView = z.infer<typeof HealthView>;

/** The stages of an SSH connect, in order (electron/client/ssh/ssh-hooks.ts). */
export const SshStage = z.enum([
  'connecting',
  'authenticating',
  'checking',
  'installing',
  'starting',
  'connected',
]);
export type SshStage = z.infer<typeof SshStage>;

/** Where an SSH connect is: its current stage with live detail, and how the last attempt failed. */
export const SshConnectView = z.object({
  stage: SshStage,
  /** ssh's or the bootstrap's words for what is happening ("uploading node runtime", …). */
  detail: z.string().optional(),
  /** While installing: bytes sent so far, of the total to send. */
  bytesSent: z.number().optional(),
  bytesTotal: z.number().optional(),
  /** The last attempt's failure: the stage it stopped in and ssh's own message. */
  failure: z.object({ stage: SshStage, message: z.string() }).nullable(),
  /** Lines in the connect log (ssh.connectLog), so *Show log* knows there is something. */
  logLines: z.number(),
});
export type SshConnectView = z.infer<typeof SshConnectView>;

/** A `Host` entry of ~/.ssh/config, with what `ssh -G` resolves it to. */
export const SshHostView = z.object({
  alias: z.string(),
  user: z.string().nullable(),
  hostname: z.string().nullable(),
  port: z.number().nullable(),
  proxyJump: z.string().nullable(),
  proxyCommand: z.string().nullable(),
  /** Why `ssh -G` could not resolve it (the entry is still listed). */
  problem: z.string().nullable(),
});
export type SshHostView = z.infer<typeof SshHostView>;

/** A question ssh asks (host key, password, passphrase, one-time code), waiting for the user. */
export const SshPromptView = z.object({
  id: z.string(),
  /** The environment connecting, or null for a *Test connection* of the environment dialog. */
  envId: EnvironmentId.nullable(),
  /** The name to show ("Lab box"); for a test, the name typed in the dialog. */
  envName: z.string(),
  kind: z.enum(['hostKey', 'password', 'passphrase', 'otp', 'other']),
  /** ssh's own text, in full (a host-key question holds the fingerprint). */
  text: z.string(),
  destination: z.string(),
  /** Typed answers are masked; a host-key question is answered by a choice. */
  secret: z.boolean(),
});
export type SshPromptView = z.infer<typeof SshPromptView>;

export const EnvironmentView = z.object({
  id: EnvironmentId,
  name: z.string(),
  color: z.string(),
  settings: EnvironmentSettings,
  hasToken: z.boolean(),
  /** Whether the user wants it connected (a disconnected environment stays idle). */
  enabled: z.boolean(),
  link: LinkState,
  health: HealthView.nullable(),
  /** environmentInfo from the server, as received (platform, shell, version, capabilities...). */
  info: z.record(z.string(), z.unknown()).nullable(),
  /** Output held back because the server cannot pause processes (codex): bytes buffered now. */
  bufferedBytes: z.number(),
  /** SSH environments: the connect's stage, detail and last failure; absent for other kinds. */
  sshConnect: SshConnectView.nullable().optional(),
});
export type EnvironmentView = z.infer<typeof EnvironmentView>;

const ProcessState = z.enum(['starting', 'running', 'exited', 'failed', 'lost']);
export type ProcessState = z.infer<typeof ProcessState>;

export const ProcessView = z.object({
  envId: EnvironmentId,
  processId: z.string(),
  argv: z.array(z.string()),
  /** Short label for tabs and lists. */
  title: z.string(),
  cwd: z.string(),
  tty: z.boolean(),
  state: ProcessState,
  pid: z.number().nullable(),
  exitCode: z.number().nullable(),
  failure: z.string().nullable(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  /** Terminal size last applied; null when the server cannot resize (size is fixed). */
  size: z.object({ cols: z.number(), rows: z.number() }).nullable(),
  resizable: z.boolean(),
});
export type ProcessView = z.infer<typeof ProcessView>;

/** One ordered event of one process, as the renderer receives it. Output bytes are base64. */
export const ProcessEventView = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('output'),
    seq: z.number(),
    stream: z.enum(['stdout', 'stderr', 'pty']),
    data: z.string(),
  }),
  z.object({ kind: z.literal('exited'), seq: z.number(), exitCode: z.number() }),
  z.object({ kind: z.literal('closed'), seq: z.number() }),
  /** Seqs fromSeq..toSeq (inclusive) can no longer be delivered: drawn as a marker. */
  z.object({
    kind: z.literal('gap'),
    fromSeq: z.number(),
    toSeq: z.number(),
    at: z.number(),
  }),
  z.object({ kind: z.literal('failed'), seq: z.number(), message: z.string() }),
]);
export type ProcessEventView = z.infer<typeof ProcessEventView>;

/** The last seq an event covers: its seq, or a gap's toSeq. Cursors ("last seq handled") use it. */
export function lastSeqOf(event: ProcessEventView): number {
  return event.kind === 'gap' ? event.toSeq : event.seq;
}

export const ProcessEventBatch = z.object({
  envId: EnvironmentId,
  processId: z.string(),
  events: z.array(ProcessEventView),
});
export type ProcessEventBatch = z.infer<typeof ProcessEventBatch>;

export const FileEntry = z.object({
  name: z.string(),
  path: z.string(),
  kind: z.enum(['file', 'directory', 'symlink', 'other']),
  size: z.number().nullable(),
  modifiedAtMs: z.number().nullable(),
  hidden: z.boolean(),
});
export type FileEntry = z.infer<typeof FileEntry>;

export const FilePreview = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string(), truncated: z.boolean(), size: z.number() }),
  z.object({ kind: z.literal('image'), mime: z.string(), dataBase64: z.string(), size: z.number() }),
  z.object({ kind: z.literal('binary'), size: z.number() }),
  z.object({ kind: z.literal('tooLarge'), size: z.number(), limit: z.number() }),
]);
export type FilePreview = z.infer<typeof FilePreview>;

/**
 * What to do when an upload or a rename would replace an existing name: refuse (the default, so
 * nothing is replaced without the user's say), replace it, or keep both under a numbered name.
 */
export const IfExists = z.enum(['fail', 'replace', 'keepBoth']);
export type IfExists = z.infer<typeof IfExists>;

/**
 * The editor's limits, shared by both sides. A file up to EDITOR_OPEN_LIMIT_BYTES opens for editing;
 * a larger one only as a read-only preview of its start. A save may be a little larger than what was
 * opened (typing adds). The web host takes messages up to 4 MiB, so a save larger than one
 * EDITOR_SAVE_CHUNK_BYTES travels in chunks (editor.beginSave, editor.saveChunk, then editor.save).
 */
export const EDITOR_OPEN_LIMIT_BYTES = 5 * 1_048_576;
export const EDITOR_SAVE_LIMIT_BYTES = Math.floor(5.5 * 1_048_576);
export const EDITOR_SAVE_CHUNK_BYTES = 512 * 1024;
/** The base64 length of one chunk: the most one editor.save or editor.saveChunk carries inline. */
const EDITOR_CHUNK_BASE64_CHARS = Math.ceil(EDITOR_SAVE_CHUNK_BYTES / 3) * 4;

/** What the editor remembers of a file as it read or wrote it, to notice a change on the server. */
export const EditVersion = z.object({
  size: z.number().int().min(0),
  modifiedAtMs: z.number().nullable(),
  /** SHA-256 of the file's bytes, hex: what decides whether the file changed. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type EditVersion = z.infer<typeof EditVersion>;

/**
 * A file opened for the editor: editable UTF-8 text (a byte-order mark kept aside), the read-only
 * start of a file too large to edit, or a file that is not text at all — each with the reason.
 */
export const EditorFile = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('text'),
    /** The file that is edited and saved: the opened path with symlinks resolved. */
    path: z.string(),
    text: z.string(),
    bom: z.boolean(),
    version: EditVersion,
  }),
  z.object({
    kind: z.literal('preview'),
    path: z.string(),
    text: z.string(),
    size: z.number(),
    reason: z.string(),
  }),
  z.object({ kind: z.literal('binary'), path: z.string(), size: z.number(), reason: z.string() }),
]);
export type EditorFile = z.infer<typeof EditorFile>;

/**
 * How a save treats the file on the server: write only if it is still what was opened
 * (`ifUnchanged`), replace whatever is there (`overwrite`), write it again after it was deleted
 * without replacing one that reappeared (`recreate`), or write a numbered copy beside it (`copy`).
 */
export const EditorSaveMode = z.enum(['ifUnchanged', 'overwrite', 'recreate', 'copy']);
export type EditorSaveMode = z.infer<typeof EditorSaveMode>;

export const EditorSaveResult = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('saved'), path: z.string(), version: EditVersion }),
  /** The file changed on the server since it was opened: nothing was written; `theirs` is it now. */
  z.object({ kind: z.literal('conflict'), theirs: EditorFile }),
  /** The file is gone from the server: nothing was written. */
  z.object({ kind: z.literal('deleted') }),
]);
export type EditorSaveResult = z.infer<typeof EditorSaveResult>;

/** One file of a folder transfer, with its path inside the folder ("/"-separated). */
export const TransferFileView = z.object({
  path: z.string(),
  totalBytes: z.number(),
  doneBytes: z.number(),
  /** `skipped`: left out on purpose (the user kept the existing file, or a symlink); `note` says why. */
  state: z.enum(['queued', 'running', 'done', 'failed', 'skipped', 'cancelled']),
  note: z.string().nullable(),
});
export type TransferFileView = z.infer<typeof TransferFileView>;

export const TransferView = z.object({
  id: z.string(),
  envId: EnvironmentId,
  direction: z.enum(['upload', 'download']),
  remotePath: z.string(),
  name: z.string(),
  totalBytes: z.number().nullable(),
  doneBytes: z.number(),
  /** Bytes per second over the recent window. */
  rate: z.number(),
  state: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  error: z.string().nullable(),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  /** A folder transfer: each of its files (doneBytes and totalBytes are their sums); else absent. */
  files: z.array(TransferFileView).optional(),
});
export type TransferView = z.infer<typeof TransferView>;

/** A choice for one taken name of a folder transfer ("skip" keeps what is there). */
export const ConflictAnswer = z.enum(['replace', 'keepBoth', 'skip']);
export type ConflictAnswer = z.infer<typeof ConflictAnswer>;

/** Paths inside a folder transfer ("/"-separated, relative, no "." or ".." segments). */
const RelativePath = z
  .string()
  .min(1)
  .max(4096)
  .refine(
    (p) => !p.startsWith('/') && p.split('/').every((part) => part !== '' && part !== '.' && part !== '..'),
    {
      message: 'must be a relative path without empty, "." or ".." parts',
    },
  );

/** What a folder upload brings: its subfolders (parents first), files, and what the user left out. */
export const FolderUploadPlan = z.object({
  folders: z.array(RelativePath).max(100_000),
  files: z
    .array(
      z.object({ path: RelativePath, size: z.number().int().min(0), ifExists: IfExists.default('fail') }),
    )
    .max(100_000),
  skipped: z.array(z.object({ path: RelativePath, reason: z.string().max(500) })).max(100_000),
});
export type FolderUploadPlan = z.infer<typeof FolderUploadPlan>;

export const Settings = z.object({
  scrollback: z.number().int().min(100).max(1_000_000),
  copyOnSelect: z.boolean(),
  fontSize: z.number().int().min(8).max(32),
  theme: z.enum(['system', 'light', 'dark']),
  /** Hosts (`URL.host`) whose links in terminal output open without asking: "always allow this host". */
  trustedLinkHosts: z.array(z.string().min(1).max(300)).max(1_000),
  ...TERMINAL_SETTINGS_SHAPE,
});
export type Settings = z.infer<typeof Settings>;

export const TestConnectionResult = z.object({
  ok: z.boolean(),
  /** Which step failed: name resolution, TCP connect, HTTP auth, protocol handshake, server version. */
  stage: z.enum(['dns', 'refused', 'certificate', 'auth', 'handshake', 'version', 'timeout', 'spawn', 'ok']),
  message: z.string(),
  info: z.record(z.string(), z.unknown()).nullable(),
  rttMs: z.number().nullable(),
  /**
   * Stage 'certificate': the refused certificate. 'untrusted' (no pin, CA validation failed) can be
   * trusted on first use by pinning `fingerprint`; 'changed' means it differs from the `pinned` one.
   */
  certificate: z
    .object({
      problem: z.enum(['untrusted', 'changed']),
      fingerprint: z.string(),
      pinned: z.string().nullable(),
    })
    .optional(),
  /** SSH: where the test got to (the failing stage when it failed). */
  ssh: SshConnectView.optional(),
});
export type TestConnectionResult = z.infer<typeof TestConnectionResult>;

/** Something the user should know that is not tied to one command (e.g. a config file moved aside). */
export const AppNotice = z.object({
  id: z.string(),
  level: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  at: z.number(),
});
export type AppNotice = z.infer<typeof AppNotice>;

/** How the host keeps environment tokens at rest, so the token field can say it truthfully. */
export const TokenStorageView = z.object({
  encrypted: z.boolean(),
  /** e.g. "encrypted with the OS keychain (gnome_libsecret)" or why they are not encrypted. */
  description: z.string(),
});
export type TokenStorageView = z.infer<typeof TokenStorageView>;

const Empty = z.object({}).strict();
const Ok = z.object({ ok: z.literal(true) });
/** The most unsaved files one renderer reports (far more editor tabs than anyone keeps open). */
export const UNSAVED_EDITS_MAX = 1000;

// ── Commands ────────────────────────────────────────────────────────────────────────────────

function command<I extends z.ZodType, O extends z.ZodType>(input: I, output: O) {
  return { input, output };
}

// ── Quick open and Find in files (search.*): begin ────────────────────────────────────────
// One block, so it can move to its own namespace file as it is: the views and the commands.

/** An absolute path on the host: the folder Quick open lists and Find in files searches. */
const SearchRoot = z.string().min(1).max(4096).startsWith('/');

/** The files of a workspace for Quick open, as the host listed them (cached per environment). */
export const WorkspaceFiles = z.object({
  root: z.string(),
  /** Paths relative to root, "/"-separated, in the order the host listed them. */
  files: z.array(z.string()),
  /** The listing stopped at its count, depth or time limit: some files are not in it. */
  truncated: z.boolean(),
  /** What listed them: `rg --files`, `git ls-files`, `find`, or a walk over the file system. */
  source: z.enum(['rg', 'git', 'find', 'walk']),
  listedAt: z.number(),
});
export type WorkspaceFiles = z.infer<typeof WorkspaceFiles>;

/** What Find in files looks for: the text (or a regex), its options and an optional include glob. */
export const TextSearchOptions = z.object({
  query: z.string().min(1).max(1000),
  caseSensitive: z.boolean().default(false),
  /** The query is a regular expression (ripgrep's syntax, or grep -E's without ripgrep). */
  regex: z.boolean().default(false),
  wholeWord: z.boolean().default(false),
  /** Globs of the file names to search, comma-separated (e.g. "*.ts, *.md"); empty: every file. */
  include: z.string().max(1000).default(''),
});
export type TextSearchOptions = z.input<typeof TextSearchOptions>;

/** One matched line: its number (from 1), its text (cut around the match) and the matched ranges. */
export const TextMatch = z.object({
  line: z.number().int().min(1),
  text: z.string(),
  /** [start, end) character offsets in `text`. */
  ranges: z.array(z.tuple([z.number().int(), z.number().int()])),
});
export type TextMatch = z.infer<typeof TextMatch>;

export const TextSearchResult = z.object({
  tool: z.enum(['rg', 'grep']),
  /** Files with matches, each with its absolute path, in the order the host found them. */
  files: z.array(z.object({ path: z.string(), matches: z.array(TextMatch) })),
  /** Matches counted, of which the first `files` hold at most the cap (the rest are "N more…"). */
  totalMatches: z.number().int(),
  /** The search stopped before the end (count limit, time limit or cancelled): the total is a floor. */
  stopped: z.enum(['countLimit', 'timeout', 'cancelled']).nullable(),
  /** What the tool complained of while still finding matches (unreadable files…). */
  warning: z.string().nullable(),
});
export type TextSearchResult = z.infer<typeof TextSearchResult>;

const searchCommands = {
  /** The files under `root` for Quick open: the cached listing, or a fresh one if `refresh`. */
  'search.files': command(
    z.object({ envId: EnvironmentId, root: SearchRoot, refresh: z.boolean().default(false) }),
    WorkspaceFiles,
  ),
  /** Find in files under `root`, run on the host; `searchId` names it for search.cancel. */
  'search.text': command(
    TextSearchOptions.extend({
      envId: EnvironmentId,
      root: SearchRoot,
      searchId: z.string().min(1).max(100),
    }),
    TextSearchResult,
  ),
  /** Stops a running search.text; it answers with what it found so far. */
  'search.cancel': command(z.object({ searchId: z.string().min(1).max(100) }), Ok),
} as const;

// ── Quick open and Find in files (search.*): end ──────────────────────────────────────────

export const commands = {
  'environments.list': command(Empty, z.array(EnvironmentView)),
  'environments.add': command(EnvironmentDraft, EnvironmentView),
  'environments.update': command(z.object({ id: EnvironmentId, draft: EnvironmentDraft }), EnvironmentView),
  'environments.remove': command(
    z.object({ id: EnvironmentId, terminateProcesses: z.boolean().optional() }),
    Ok,
  ),
  'environments.connect': command(z.object({ id: EnvironmentId }), Ok),
  'environments.disconnect': command(z.object({ id: EnvironmentId }), Ok),
  'environments.reconnectNow': command(z.object({ id: EnvironmentId }), Ok),
  'environments.reconnectAll': command(Empty, Ok),
  /** The renderer saw the network come back (`online`) or the window regain focus: retry now. */
  'environments.networkMayBeBack': command(Empty, Ok),
  'environments.test': command(
    z.object({
      settings: EnvironmentSettings,
      token: z.string().max(10_000).nullish(),
      id: EnvironmentId.optional(),
      /** SSH: the name a prompt shows, and the id its live `ssh.testProgress` events carry. */
      name: z.string().max(100).optional(),
      testId: z.string().min(1).max(100).optional(),
    }),
    TestConnectionResult,
  ),

  'processes.list': command(z.object({ envId: EnvironmentId }), z.array(ProcessView)),
  'processes.start': command(
    z.object({
      envId: EnvironmentId,
      /** Absent: the user's login shell. */
      argv: z.array(z.string()).min(1).optional(),
      /** A shell command line, run with `$SHELL -lc`. Exclusive with argv. */
      shellLine: z.string().min(1).optional(),
      cwd: z.string().optional(),
      env: z.record(z.string(), z.string()).optional(),
      tty: z.boolean(),
      size: z.object({ cols: z.number().int().min(1), rows: z.number().int().min(1) }).optional(),
    }),
    ProcessView,
  ),
  /** Input for a process; `data` is UTF-8 text (keystrokes, paste) unless `base64` is set. */
  'processes.write': command(
    ProcessKey.extend({ data: z.string().max(1_048_576), base64: z.boolean().optional() }),
    Ok,
  ),
  /**
   * Ends the process's input after the writes before it (a pipe is closed, a terminal gets its EOF
   * character); `unsupported` for a pipe process on a server that cannot close stdin (codex).
   */
  'processes.closeStdin': command(ProcessKey, Ok),
  'processes.resize': command(
    ProcessKey.extend({
      cols: z.number().int().min(1).max(10_000),
      rows: z.number().int().min(1).max(10_000),
    }),
    z.object({ applied: z.boolean() }),
  ),
  'processes.signal': command(
    ProcessKey.extend({ signal: z.enum(['interrupt', 'terminate', 'kill', 'hangup']) }),
    Ok,
  ),
  'processes.restart': command(ProcessKey, ProcessView),
  /** Drop a finished process from the list (a running one must be terminated first). */
  'processes.forget': command(ProcessKey, Ok),
  /** Retained events with seq > afterSeq, for a pane opening or a reloaded renderer. */
  'processes.replay': command(
    ProcessKey.extend({ afterSeq: z.number().int().min(0) }),
    z.object({ events: z.array(ProcessEventView), lastSeq: z.number() }),
  ),
  /**
   * Flow control: the renderer has written `deltaBytes` more output bytes of this process into
   * xterm since its previous ack. A delta, unlike the server's cumulative `process/ack`: a renderer
   * joins mid-stream (after a reload) and has no offset of its own.
   */
  'processes.ack': command(ProcessKey.extend({ deltaBytes: z.number().int().min(0) }), Ok),

  'files.home': command(z.object({ envId: EnvironmentId }), z.object({ home: z.string(), cwd: z.string() })),
  'files.list': command(
    z.object({ envId: EnvironmentId, path: z.string().min(1), showHidden: z.boolean() }),
    z.object({ path: z.string(), entries: z.array(FileEntry) }),
  ),
  'files.stat': command(z.object({ envId: EnvironmentId, path: z.string().min(1) }), FileEntry),
  'files.preview': command(z.object({ envId: EnvironmentId, path: z.string().min(1) }), FilePreview),
  'files.mkdir': command(z.object({ envId: EnvironmentId, path: z.string().min(1) }), Ok),
  /** Renames `from` to `to`; an existing `to` is refused (code `conflict`) unless `ifExists` says otherwise. */
  'files.rename': command(
    z.object({
      envId: EnvironmentId,
      from: z.string().min(1),
      to: z.string().min(1),
      ifExists: IfExists.default('fail'),
    }),
    z.object({ ok: z.literal(true), path: z.string().optional() }),
  ),
  /** Which of `names` already exist in the folder `dir` (asked before uploading into it). */
  'files.existing': command(
    z.object({ envId: EnvironmentId, dir: z.string().min(1), names: z.array(z.string().min(1)).max(10_000) }),
    z.object({ names: z.array(z.string()) }),
  ),
  'files.delete': command(z.object({ envId: EnvironmentId, path: z.string().min(1) }), Ok),

  /** Reads a file for the editor (text, a read-only preview, or the reason it cannot be edited). */
  'editor.open': command(z.object({ envId: EnvironmentId, path: z.string().min(1) }), EditorFile),
  /** Writes the editor's bytes, staged and renamed into place; `mode` says what may be replaced. */
  'editor.save': command(
    z.object({
      envId: EnvironmentId,
      path: z.string().min(1),
      /** The whole file, when it fits one chunk; empty when the bytes came with editor.saveChunk. */
      dataBase64: z.string().max(EDITOR_CHUNK_BASE64_CHARS).default(''),
      mode: EditorSaveMode,
      /** What was opened (or last saved); required for `ifUnchanged`. */
      base: EditVersion.nullable().default(null),
      /** The chunked save (editor.beginSave) whose bytes this saves, all of them sent. */
      saveId: z.string().nullable().default(null),
    }),
    EditorSaveResult,
  ),
  /** Starts gathering a save too large for one message; its bytes follow with editor.saveChunk. */
  'editor.beginSave': command(
    z.object({ envId: EnvironmentId, totalBytes: z.number().int().min(0).max(EDITOR_SAVE_LIMIT_BYTES) }),
    z.object({ saveId: z.string() }),
  ),
  /** The next bytes of a chunked save, in order; they reach the server only with editor.save. */
  'editor.saveChunk': command(
    z.object({
      saveId: z.string(),
      offset: z.number().int().min(0),
      dataBase64: z.string().max(EDITOR_CHUNK_BASE64_CHARS),
    }),
    Ok,
  ),

  /** Starts an upload; the renderer then sends chunks in order with `transfers.uploadChunk`. */
  'transfers.startUpload': command(
    z.object({
      envId: EnvironmentId,
      remotePath: z.string().min(1),
      totalBytes: z.number().int().min(0),
      /** An existing file at remotePath fails the upload unless this says replace or keep both. */
      ifExists: IfExists.default('fail'),
    }),
    TransferView,
  ),
  /**
   * Starts a folder upload to `remotePath` (the folder itself, created if missing): subfolders are
   * created, then the files arrive one after another, in plan order, with `transfers.uploadChunk`.
   */
  'transfers.startFolderUpload': command(
    z.object({ envId: EnvironmentId, remotePath: z.string().min(1), plan: FolderUploadPlan }),
    TransferView,
  ),
  'transfers.uploadChunk': command(
    z.object({
      id: z.string(),
      /** Which file of a folder upload (its index in the plan); 0 for a single file. */
      file: z.number().int().min(0).default(0),
      offset: z.number().int().min(0),
      dataBase64: z.string().max(2_000_000),
      last: z.boolean(),
    }),
    Ok,
  ),
  /**
   * Starts a download. In Electron the host asks for a destination with a save dialog; in web mode
   * the response carries a one-time URL the browser downloads from.
   */
  'transfers.startDownload': command(
    z.object({ envId: EnvironmentId, remotePath: z.string().min(1) }),
    z.object({ transfer: TransferView, url: z.string().nullable() }),
  ),
  /**
   * Starts a folder download: in Electron into a folder the user picks (as a tree), in web mode as
   * a zip from a one-time URL. Names already taken in the local destination come back in `taken`
   * with a `planId` and nothing is written until `transfers.confirmFolderDownload` answers them.
   */
  'transfers.startFolderDownload': command(
    z.object({ envId: EnvironmentId, remotePath: z.string().min(1) }),
    z.object({
      transfer: TransferView.nullable(),
      url: z.string().nullable(),
      taken: z.array(z.string()),
      planId: z.string().nullable(),
    }),
  ),
  /** Answers the taken names of a folder download (a name left out is skipped) and queues it. */
  'transfers.confirmFolderDownload': command(
    z.object({ planId: z.string(), answers: z.record(z.string(), ConflictAnswer) }),
    z.object({ transfer: TransferView, url: z.string().nullable() }),
  ),
  'transfers.list': command(Empty, z.array(TransferView)),
  'transfers.cancel': command(z.object({ id: z.string() }), Ok),
  'transfers.clearFinished': command(Empty, Ok),

  /** The `Host` entries of ~/.ssh/config (Includes followed, wildcard patterns skipped), resolved. */
  'ssh.hosts': command(Empty, z.array(SshHostView)),
  /** Prompts waiting for an answer now (one per environment; the rest queue behind it). */
  'ssh.prompts': command(Empty, z.array(SshPromptView)),
  /** Answers a prompt; `null` cancels it (ssh then fails that connect with "cancelled"). */
  'ssh.answerPrompt': command(z.object({ id: z.string(), answer: z.string().max(10_000).nullable() }), Ok),
  /** The connect log of an SSH environment (ssh's stderr, probe and install steps), oldest first. */
  'ssh.connectLog': command(z.object({ envId: EnvironmentId }), z.object({ lines: z.array(z.string()) })),
  /** The terminal layout stored at the last save (null before the first), for a restarted app. */
  'layout.get': command(Empty, PaneLayout.nullable()),
  /** Stores the renderer's current terminal layout (the last one sent wins). */
  'layout.save': command(PaneLayout, Ok),

  'settings.get': command(Empty, Settings),
  'settings.update': command(Settings.partial(), Settings),

  /** Notices not yet dismissed (oldest first). */
  'app.notices': command(Empty, z.array(AppNotice)),
  'app.dismissNotice': command(z.object({ id: z.string() }), Ok),
  /** Whether stored tokens are really encrypted (not on Linux without a keyring, nor in web mode). */
  'app.tokenStorage': command(Empty, TokenStorageView),
  /**
   * The names of the files with unsaved changes in this renderer's editors (each report replaces the
   * last; an empty list clears it), so the desktop app's quit warning can name them.
   */
  'app.reportUnsavedEdits': command(
    z.object({ files: z.array(z.string().min(1).max(1000)).max(UNSAVED_EDITS_MAX) }),
    Ok,
  ),

  /**
   * Opens an http(s) URL in the system browser, without a shell; anything else is refused. A web-mode
   * page opens links in a new tab itself instead.
   */
  'shell.openExternal': command(z.object({ url: z.string().url() }), Ok),

  ...searchCommands,
} as const;

// ── Events (AppService → renderer) ──────────────────────────────────────────────────────────

const events = {
  /** An environment's config, link state, health or info changed (throttled per environment). */
  'environments.changed': EnvironmentView,
  'environments.removed': z.object({ id: EnvironmentId }),
  'processes.changed': ProcessView,
  'processes.removed': ProcessKey,
  /** Ordered, batched output; per process, seqs are ascending and each seq is sent once. */
  'processes.events': z.array(ProcessEventBatch),
  'transfers.changed': TransferView,
  'settings.changed': Settings,
  /** A new notice (also listed by app.notices until dismissed). */
  'app.notice': AppNotice,
  /** ssh asks something; the renderer shows it until answered or closed. */
  'ssh.prompt': SshPromptView,
  /** A prompt was answered (maybe in another window), cancelled, or its connect ended. */
  'ssh.promptClosed': z.object({ id: z.string() }),
  /** Live stages of an SSH *Test connection* (by the testId it was started with). */
  'ssh.testProgress': z.object({ testId: z.string(), progress: SshConnectView }),
  /** The desktop app's native menu chose a command of the renderer's command registry, by id. */
  'app.menuCommand': z.object({ id: z.string().min(1).max(100) }),
} as const;

export type Commands = typeof commands;
export type CommandName = keyof Commands;
export type CommandInput<N extends CommandName> = z.input<Commands[N]['input']>;
export type CommandOutput<N extends CommandName> = z.output<Commands[N]['output']>;
type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<N extends EventName> = z.output<Events[N]>;

export const commandNames = Object.keys(commands) as CommandName[];

export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(commands, name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
}

// ── Errors crossing the boundary ────────────────────────────────────────────────────────────

export const IpcErrorCode = z.enum([
  'invalidInput',
  'unknownCommand',
  'notFound',
  'disconnected',
  'unsupported',
  'conflict',
  'remote',
  'internal',
]);
export type IpcErrorCode = z.infer<typeof IpcErrorCode>;
export const IpcErrorPayload = z.object({ code: IpcErrorCode, message: z.string() });
export type IpcErrorPayload = z.infer<typeof IpcErrorPayload>;

/** A user-readable error from the AppService, rebuilt on the renderer side from IpcErrorPayload. */
export class IpcError extends Error {
  constructor(
    readonly code: IpcErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'IpcError';
  }
}

/** The API the renderer sees (window.tether in Electron, a WebSocket client in web mode). */
export interface TetherBridge {
  invoke<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutput<N>>;
  on<N extends EventName>(name: N, listener: (payload: EventPayload<N>) => void): () => void;
}

/** What a command answers on the wire: its output, or the error the renderer rebuilds. */
type CommandEnvelope<N extends CommandName> =
  { ok: true; output: CommandOutput<N> } | { ok: false; error: IpcErrorPayload };

/**
 * What the Electron preload exposes as `window.tether`. Its invoke resolves with the envelope
 * instead of rejecting, because an Error crossing contextBridge keeps only its message; the
 * renderer turns the envelope back into output or an IpcError with its code
 * (`bridgeFromPreload`).
 */
export interface PreloadBridge {
  invoke<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandEnvelope<N>>;
  on<N extends EventName>(name: N, listener: (payload: EventPayload<N>) => void): () => void;
}

/** The renderer's TetherBridge over the preload's envelope bridge. */
export function bridgeFromPreload(preload: PreloadBridge): TetherBridge {
  return {
    async invoke(name, input) {
      const result = await preload.invoke(name, input);
      if (!result.ok) throw new IpcError(result.error.code, result.error.message);
      return result.output;
    },
    on: (name, listener) => preload.on(name, listener),
  };
}
