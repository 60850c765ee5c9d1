// Every number that shapes the AppService: batching, flow-control windows, buffers, preview and
// transfer limits, throttles. docs/app.md explains each one; change them here and nowhere else.
import type { OutputCoalescingPolicy } from '../../shared/output-coalescing';

/** Output arriving this long after the previous output is a quiet spell's first: it goes out at once. */
const BATCH_QUIET_MS = 4;
/** While output keeps coming, it is batched to the renderer at most this often… */
const BATCH_INTERVAL_MS = 16;
/** …or as soon as a batch holds this many output bytes. */
export const BATCH_MAX_BYTES = 256 * 1024;
/**
 * How long a user action (a file operation, a process start, a save) made while its environment is
 * reconnecting waits for the link before it fails, unsent, with "waiting for the link": an outage
 * can last hours, and an action must not hang that long. Process output keeps resuming meanwhile.
 */
export const ACTION_LINK_WAIT_MS = 10_000;
/** The three numbers above as the shared coalescing policy (shared/output-coalescing.ts). */
export const RENDERER_BATCHING: OutputCoalescingPolicy = {
  quietMs: BATCH_QUIET_MS,
  maxBytes: BATCH_MAX_BYTES,
  delayMs: BATCH_INTERVAL_MS,
  maxIntervalMs: BATCH_INTERVAL_MS,
};
/** Output bytes of one process sent to one renderer connection and not yet acknowledged. */
export const RENDERER_WINDOW_BYTES = 2 * 1_048_576;
/**
 * Output window requested from servers with `tetherFlowControl` (they stop reading the process).
 * Kept within the server's default output retention (1 MiB), so whatever is in flight when the link
 * drops can still be read back after the reconnect: flow control never causes a gap.
 */
export const SERVER_OUTPUT_WINDOW_BYTES = 1_048_576;
/**
 * Output kept per process in the app: for replay after a renderer reload, and as the buffer for
 * servers that cannot pause a process (codex). Beyond it the oldest output is dropped and any
 * renderer that had not received it gets an explicit gap event.
 */
export const PROCESS_LOG_LIMIT_BYTES = 16 * 1_048_576;
/** …and at most this many events (many tiny chunks cost more than their bytes). */
export const PROCESS_LOG_LIMIT_EVENTS = 100_000;
/**
 * Output kept by all processes' logs together: a hundred busy terminals must not each keep their
 * 16 MiB. Beyond it the app's oldest output, whichever process printed it, is dropped first, and a
 * pane that had not shown it gets a gap marker saying the app's limit dropped it.
 */
export const PROCESS_LOGS_TOTAL_LIMIT_BYTES = 256 * 1_048_576;

/** environments.changed is sent at most this often per environment for health-only changes. */
export const HEALTH_THROTTLE_MS = 250;
/** RTT samples sent to the UI per environment (the newest ones). */
export const HEALTH_SAMPLES_TO_UI = 60;

/** files.preview: text beyond this is cut (and flagged truncated). */
export const PREVIEW_TEXT_LIMIT_BYTES = 256 * 1024;
/** files.preview: images up to this size are sent whole as base64. */
export const PREVIEW_IMAGE_LIMIT_BYTES = 8 * 1_048_576;
/** files.list: getMetadata calls in flight at once for one listing. */
export const LIST_METADATA_CONCURRENCY = 8;

/** Transfers running at once; the rest wait in the queue. */
export const TRANSFER_CONCURRENCY = 2;
/** Upload bytes received from the renderer but not yet written to the server. */
export const UPLOAD_BUFFER_LIMIT_BYTES = 8 * 1_048_576;
/** Rate is measured over this window. */
export const TRANSFER_RATE_WINDOW_MS = 2_000;
/** transfers.changed for progress is sent at most this often per transfer. */
export const TRANSFER_PROGRESS_THROTTLE_MS = 100;
/** A one-time download URL of the web host expires after this long when unused. */
export const DOWNLOAD_URL_TTL_MS = 5 * 60_000;

/** environments.test gives up after this long. */
export const TEST_CONNECTION_TIMEOUT_MS = 15_000;
/**
 * …an SSH environment's test gets longer: it may install the server (and a Node runtime) on the
 * host, and it waits while the user answers ssh's prompts.
 */
export const SSH_TEST_CONNECTION_TIMEOUT_MS = 180_000;
/** Closing clients on shutdown waits at most this long. */
export const SHUTDOWN_TIMEOUT_MS = 5_000;
/**
 * Before that, shutdown waits at most this long for cancelled uploads to remove what they staged on
 * their servers; a dead link must not hold quitting up longer.
 */
export const SHUTDOWN_CLEANUP_TIMEOUT_MS = 3_000;

/** Lines of connect log kept per SSH environment (oldest dropped first) for *Show log*. */
export const SSH_CONNECT_LOG_LINES = 1_000;
/** A connect-log line longer than this is cut (a runaway banner must not fill the log). */
export const SSH_CONNECT_LOG_LINE_CHARS = 2_000;
/** `ssh -G <alias>` for the host picker is given this long per alias before it is reported stuck. */
export const SSH_RESOLVE_TIMEOUT_MS = 5_000;
/** `ssh -G` runs at once while listing hosts. */
export const SSH_RESOLVE_CONCURRENCY = 4;
/** ~/.ssh/config Includes nested deeper than this are not followed (ssh's own limit is 16). */
export const SSH_CONFIG_INCLUDE_DEPTH = 16;
/**
 * Running processes remembered per environment for an app restart (the newest ones); keeps the
 * saved-sessions file small whatever the user runs.
 */
export const MAX_SAVED_PROCESSES_PER_ENVIRONMENT = 100;
/** The saved-sessions file is rewritten at most this often while output flows (and at quit). */
export const SAVED_SESSIONS_INTERVAL_MS = 1_000;

/** A helper program on the host (rg, grep, git, find) keeps this much of its stderr for the error. */
export const HOST_COMMAND_STDERR_BYTES = 8 * 1024;
/** After a helper program is told to stop, its closed event is awaited this long at most. */
export const HOST_COMMAND_STOP_WAIT_MS = 3_000;
/** search.files: at most this many files of a workspace are listed for Quick open… */
export const QUICK_OPEN_MAX_FILES = 20_000;
/** …no deeper than this many folders below its root… */
export const QUICK_OPEN_MAX_DEPTH = 16;
/** …and the listing stops after this long, keeping what it has. */
export const QUICK_OPEN_TIMEOUT_MS = 20_000;
/** Folders read at once by the listing that walks the file system (no rg, git or find on the host). */
export const QUICK_OPEN_WALK_CONCURRENCY = 8;
/** Listings kept per environment (one per workspace root), the least recently used dropped first. */
export const QUICK_OPEN_CACHED_ROOTS = 8;
/** search.text: matches sent to the renderer; beyond it they are only counted… */
export const FIND_MAX_MATCHES = 1_000;
/** …up to this many, after which the search stops and says "at least". */
export const FIND_COUNT_LIMIT = 100_000;
/** Matches taken from one file (rg --max-count, grep -m). */
export const FIND_MAX_MATCHES_PER_FILE = 200;
/** A search stops after this long, keeping what it found. */
export const FIND_TIMEOUT_MS = 30_000;
/** A matched line is cut to this many characters around its first match. */
export const FIND_LINE_CHARS = 240;

/**
 * Commands of one shell's history kept (the newest), in the app, the IPC view and sessions.json: a
 * long-lived shell's history stays small to send with every change of its process.
 */
export const MAX_SHELL_COMMANDS = 200;
