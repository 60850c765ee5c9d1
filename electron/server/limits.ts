// Every number that shapes the exec-server's behaviour, in one place. Defaults match codex
// 0.171.0 where codex has the same notion; the rest are Tether's own bounds.
import type { OutputCoalescingPolicy } from '../../shared/output-coalescing';

/**
 * How long a detached session waits for a resume before its processes are killed: hours, so a
 * closed laptop lid or a long network outage loses nothing (VS Code keeps remote sessions 3 h).
 * Advertised in `environmentInfo` so clients know how long to keep trying.
 */
export const DEFAULT_SESSION_TTL_MS = 3 * 60 * 60 * 1000;
/** codex 0.171.0's detached-session lifetime, for `--session-ttl-ms` when codex's behaviour is wanted. */
export const CODEX_SESSION_TTL_MS = 80_000;
/** How long an exited process stays readable (and its id taken) after `closed`. */
export const DEFAULT_EXITED_PROCESS_TTL_MS = 80_000;
/** Output retained per process for `process/read`, in bytes and in chunks (oldest evicted first). */
export const DEFAULT_RETAINED_OUTPUT_BYTES = 1_048_576;
export const DEFAULT_RETAINED_OUTPUT_CHUNKS = 50_000;
/** Accepted writeIds remembered per process for idempotent `process/write`. */
export const DEFAULT_WRITE_ID_WINDOW = 4096;

/** Requests served at once per connection; further ones queue in arrival order. */
export const MAX_IN_FLIGHT_REQUESTS = 256;

// ── Resource caps: bad or heavy use gets a clear error instead of taking the server down ──────
/**
 * Sessions held at once, attached or detached. At the cap, the oldest detached session with no
 * running process makes room (it holds only finished output); failing that, a new one is refused.
 */
export const DEFAULT_MAX_SESSIONS = 256;
/** Processes of one session not yet closed (running or starting). */
export const DEFAULT_MAX_PROCESSES_PER_SESSION = 512;
/** `fs/open` handles open at once on one connection (they belong to it). */
export const DEFAULT_MAX_OPEN_FILES = 256;
/** Requests waiting for a free slot on one connection; beyond it they are refused at once. */
export const DEFAULT_MAX_QUEUED_REQUESTS = 4096;
/**
 * Largest file `fs/readFile` answers (its reply is the whole file in base64, about 43 MiB here).
 * Larger files are read in blocks with fs/open + fs/readBlock.
 */
export const MAX_READ_FILE_BYTES = 32 * 1024 * 1024;
/** Inbound WebSocket limits (codex: 16 MiB frame, 64 MiB message). */
export const MAX_INBOUND_FRAME_BYTES = 16 * 1024 * 1024;
const MAX_INBOUND_MESSAGE_BYTES = 64 * 1024 * 1024;
/** Limits on one decoded JSON message: shared with the client, which applies them to what servers send. */
export { MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../../shared/protocol/json-limits';
/** Pending stdio input without a newline after which the line is rejected as too large. */
export const MAX_STDIO_LINE_BYTES = MAX_INBOUND_MESSAGE_BYTES;

/** Outbound bytes queued on a connection above which process output reading pauses. */
export const OUTBOUND_HIGH_WATERMARK_BYTES = 8 * 1024 * 1024;
/** Queued bytes below which reading resumes. */
export const OUTBOUND_LOW_WATERMARK_BYTES = 1024 * 1024;
/**
 * Outbound bytes queued on a connection above which no stream socket is read until the queue has
 * drained. Each stream may have a 2 MiB window in flight, so a page loading through many of them
 * could otherwise queue up to the high-water mark ahead of process output (a keystroke's echo);
 * TCP streams take what the link has to spare instead, and output is never paused for them.
 */
export const STREAM_OUTBOUND_YIELD_BYTES = 1024 * 1024;

/**
 * When a resume names a session that is still attached, the old connection gets this long to
 * answer a ping. A silent one (a route change left it half-open) is dropped and the session moves
 * to the new connection; a live one keeps it and the resume gets -32010, as with codex.
 */
export const ATTACHED_PROBE_TIMEOUT_MS = 1_500;
/**
 * A client behind the daemon's unix socket (through a bridge) counts as there to read a closed
 * process when it was heard from this recently: Tether's client pings an idle link every 2 s.
 */
export const SOCKET_CLIENT_HEARD_WITHIN_MS = 10_000;
/**
 * Largest output chunk sent (one full pipe read): reads are joined only up to it. Above ~96 KiB the
 * JSON text of a message passes V8's 128 KiB young-object limit, and building and parsing such
 * strings (server and client alike) measured several times slower per byte.
 */
export const MAX_OUTPUT_CHUNK_BYTES = 64 * 1024;
/** Output arriving this soon after the previous read counts as a busy stream and is coalesced. */
const OUTPUT_QUIET_MS = 0.25;
/** Longest a read of a busy stream waits to be joined with the next ones. */
const OUTPUT_COALESCE_DELAY_MS = 1;
/** The three above as one policy: the reader thread batches output by it, once (the main thread does not again). */
export const OUTPUT_COALESCING: OutputCoalescingPolicy = {
  quietMs: OUTPUT_QUIET_MS,
  maxBytes: MAX_OUTPUT_CHUNK_BYTES,
  delayMs: OUTPUT_COALESCE_DELAY_MS,
};

/**
 * Output the reader thread may hand to the main thread before the main thread took it; beyond it
 * the reader stops, bounding the memory of a fast producer and how far output runs past a pause.
 */
export const READER_READ_AHEAD_BYTES = 1024 * 1024;
/** The least read-ahead of a flow-controlled process (small windows): a chunk and a half. */
const MIN_FLOW_CONTROLLED_READ_AHEAD_BYTES = 96 * 1024;

/**
 * Read-ahead of a process with a flow-control window: a quarter of the window, within the bounds
 * above. Output past a pause is at most this, so the window stays close to exact. It must still
 * span several chunks: at 96 KiB the reader stopped about every third 64 KiB chunk and waited for
 * a 'wake' from the main thread (679 thread round trips per 128 MiB, 26 at 1 MiB), which with the
 * per-chunk acks cost a quarter of the throughput of a consumer that keeps up (docs/exec-server.md,
 * flow control).
 */
export function flowControlledReadAhead(windowBytes: number): number {
  return Math.min(READER_READ_AHEAD_BYTES, Math.max(MIN_FLOW_CONTROLLED_READ_AHEAD_BYTES, windowBytes >> 2));
}

/**
 * How far a flow-controlled process's unacknowledged output may pass its window, which its
 * retention covers too, so a detach while the window is full loses nothing: the chunk that filled
 * the window, and what the reader thread had read by the time it saw the pause (its read-ahead, the
 * post that went past it, the batch it was filling and the read going into that batch).
 */
export function flowControlledRetentionSlack(windowBytes: number): number {
  return flowControlledReadAhead(windowBytes) + 4 * MAX_OUTPUT_CHUNK_BYTES;
}

/** Rings of ended streams the reader thread keeps for reuse (reader/output-ring.ts, RetiredRings). */
export const RETIRED_RINGS = 4;

/** The largest output ring of one stream; a larger retention spills into fresh buffers. */
export const MAX_OUTPUT_RING_BYTES = 32 * 1024 * 1024;

/**
 * Output ring of one stream (reader/output-ring.ts): room for what the process's log retains, what
 * the reader may read ahead of the main thread, and the few batches of slack the read-ahead bound
 * lets past (as for the retention slack above) plus a skipped tail, in whole batches. A ring that
 * runs full only costs speed: batches then go in fresh buffers until the log evicts.
 */
export function outputRingBytes(retainedBytes: number, readAhead: number): number {
  const wanted = retainedBytes + readAhead + 5 * MAX_OUTPUT_CHUNK_BYTES;
  const batches = Math.ceil(wanted / MAX_OUTPUT_CHUNK_BYTES);
  return Math.min(MAX_OUTPUT_RING_BYTES, batches * MAX_OUTPUT_CHUNK_BYTES);
}

/** How far a process's reader may read ahead, and its rings' size, by its window and retention. */
export function readBounds(
  windowBytes: number | null,
  retainedBytes: number,
): { readAhead: number; ringBytes: number } {
  const readAhead = windowBytes === null ? READER_READ_AHEAD_BYTES : flowControlledReadAhead(windowBytes);
  return { readAhead, ringBytes: outputRingBytes(retainedBytes, readAhead) };
}

/** Size of a pooled outbound message buffer: the largest coalesced chunk (64 KiB) in base64 plus room. */
export const MESSAGE_POOL_BUFFER_BYTES = 192 * 1024;
/** Pooled message buffers kept for reuse at most (the rest are left to the GC). */
export const MESSAGE_POOL_MAX_FREE = 64;

/** Pooled file-block buffers (1 MiB each) kept for reuse at most: one full download window. */
export const BLOCK_POOL_MAX_FREE = 16;
/** A block pool unused for this long is let go (an idle daemon keeps no download's buffers). */
export const BLOCK_POOL_IDLE_MS = 10_000;

/** Interval of server WebSocket pings (empty payload, pongs not enforced), as codex. */
export const WS_PING_INTERVAL_MS = 30_000;
/** Default terminal size of tty processes started without `size`. */
export const DEFAULT_TTY_COLS = 80;
export const DEFAULT_TTY_ROWS = 24;
/** How long shutdown waits for killed processes and sockets before exiting anyway. */
export const SHUTDOWN_GRACE_MS = 2_000;

/**
 * The SSH daemon (`server.mjs daemon`) holds a dropped session for hours, as VS Code's server does
 * (3 h): a laptop closed over lunch comes back to its processes.
 */
export const DEFAULT_DAEMON_SESSION_TTL_MS = 3 * 60 * 60 * 1000;
/** The daemon exits after this long with no connection and no session. */
export const DEFAULT_DAEMON_IDLE_EXIT_MS = 10 * 60 * 1000;
/** How long `bridge` waits for a daemon it started (or another bridge is starting) to answer. */
export const DAEMON_START_TIMEOUT_MS = 10_000;
/** How often `bridge` looks for the daemon's socket meanwhile. */
export const DAEMON_START_POLL_MS = 20;
/** How often the daemon refreshes the times of its run files, against /tmp cleaners (10 days). */
export const RUN_FILES_TOUCH_INTERVAL_MS = 60 * 60 * 1000;
/** `gc` leaves a bundle installed less than this long ago: another client may be about to start it. */
export const GC_MIN_BUNDLE_AGE_MS = 10 * 60 * 1000;
/**
 * How often the daemon drops agent offers of bridges that died without withdrawing them (killed),
 * so its processes' SSH_AUTH_SOCK never leads to a gone session's socket for longer.
 */
export const AGENT_LINK_CHECK_MS = 2_000;
/**
 * Another host's marker that a daemon there runs a bundle (a shared home) counts for this long
 * after its last refresh (each RUN_FILES_TOUCH_INTERVAL_MS): one that crashed there stops keeping
 * its bundle after that.
 */
export const GC_HOST_MARKER_STALE_MS = 3 * RUN_FILES_TOUCH_INTERVAL_MS;
/** `gc` removes an install's staging copy nothing touched for this long (its installer was killed). */
export const GC_STAGING_MAX_AGE_MS = 60 * 60 * 1000;
/** A daemon log larger than this is moved aside (one `.old` copy) before the next daemon starts. */
export const DAEMON_LOG_ROTATE_BYTES = 1024 * 1024;

/** Streams (`tetherStreams`) open or opening at once on one connection. */
export const MAX_STREAMS_PER_CONNECTION = 1024;
/** How long `stream/open` waits for the loopback port to accept. */
export const STREAM_CONNECT_TIMEOUT_MS = 10_000;
/**
 * The most one read of a stream's socket takes (the shared read buffer, streams/stream-table.ts):
 * its frame, base64 included where frames are not agreed, still fits a pooled message buffer.
 */
export const STREAM_READ_BUFFER_BYTES = 128 * 1024;
