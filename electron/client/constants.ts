// Every number that shapes the client's behaviour: timeouts, limits, backoff, keepalive and health
// thresholds. docs/client.md explains each one; change them here and nowhere else.

/** Opening a transport (TCP + WebSocket upgrade, or spawning a stdio command). Codex uses 10 s. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** The `initialize` round trip. Codex uses 10 s. */
export const INITIALIZE_TIMEOUT_MS = 10_000;
/** Default timeout of an ordinary call (fs, start, signal, …). */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
/** `environment/status` probes: a stalled link is closed by the liveness check long before this. */
export const PROBE_TIMEOUT_MS = 10_000;
/**
 * Calls in flight on one connection; later ones queue until a slot frees up. Kept
 * well below ~650: codex 0.171.0 stops answering a connection for good when that many requests are
 * pipelined on it.
 */
export const MAX_PENDING_CALLS = 256;
/** Calls beyond MAX_PENDING_CALLS wait in order for a free slot; beyond this many they are refused. */
export const MAX_QUEUED_CALLS = 65_536;

/**
 * Backoff between the reconnect attempts of one outage: the first goes at once, the next ones after
 * each step of the ramp, then one every BACKOFF_STEADY_MS for as long as the outage lasts. The
 * steady interval bounds the time from the network returning to the session being back; the wake,
 * online and focus signals (reconnectNow) cut even that short.
 */
export const BACKOFF_RAMP_MS: readonly number[] = [250, 500, 1_000, 2_000, 4_000];
export const BACKOFF_STEADY_MS = 5_000;
/** Each delay is scaled by a random factor in [1 - JITTER, 1 + JITTER], so clients do not march in step. */
export const BACKOFF_JITTER = 0.2;
/**
 * Tried on top of a server's advertised session lifetime before the session counts as expired: the
 * server's timer starts when it notices the loss, which is after our last contact.
 */
export const SESSION_HOLD_MARGIN_MS = 60_000;

/** The liveness checker runs this often on every live connection. */
export const LIVENESS_TICK_MS = 500;
/** A WebSocket ping is sent when nothing was received for this long (and none is outstanding). */
export const IDLE_PING_AFTER_MS = 2_000;
/** A connection with a probe outstanding and no inbound byte for this long is closed as dead. */
export const DEAD_AFTER_MS = 6_000;

/** RTT probes (`environment/status`) are sent this often while connected. */
export const HEALTH_SAMPLE_INTERVAL_MS = 2_000;
/** RTT samples older than this are dropped from the percentile window. */
export const HEALTH_WINDOW_MS = 120_000;
/** At most this many RTT samples are kept. */
export const HEALTH_MAX_SAMPLES = 120;
/** p95 RTT above this (or a single probe slower than it still outstanding) marks the link degraded. */
export const DEGRADED_RTT_MS = 250;
/** No inbound byte for this long while a probe is outstanding marks the link stalled. */
export const STALLED_AFTER_MS = 4_000;
/**
 * A stalled link without transport pings (an SSH bridge) that can be replaced without losing its
 * session is dropped after this long without a reply, and the session resumed on a new link (the
 * ordinary loss and recovery). Long enough that a busy server or a short network hiccup passes
 * without a reconnect (almost 4× STALLED_AFTER_MS), and as patient as ssh's own keepalive
 * (ServerAliveInterval × ServerAliveCountMax = 15 s), so an SSH link gets the same grace whichever
 * of the two notices first. A WebSocket link is closed sooner, at DEAD_AFTER_MS, as its pings tell
 * a dead peer from a busy one; a stdio server's link is never dropped, since a new one cannot
 * resume the session.
 */
export const STALL_RECONNECT_AFTER_MS = 15_000;
/** State changes kept for the health panel. */
export const HEALTH_HISTORY_LIMIT = 100;

/** Notifications for a process id nobody has registered yet are held this long (a start in flight). */
export const UNROUTED_NOTIFICATION_TTL_MS = 5_000;
/** …and at most this many of them. */
export const UNROUTED_NOTIFICATION_LIMIT = 2_048;

/** Reorder buffer caps per process (codex's values); overflow turns into a catch-up read. */
export const REORDER_MAX_EVENTS = 256;
export const REORDER_MAX_BYTES = 1_048_576;
/** Retained event log per process, replayed to late subscribers and reloaded renderers. */
export const DEFAULT_RETAINED_EVENTS = 10_000;
export const DEFAULT_RETAINED_BYTES = 4 * 1_048_576;
/** Retained output of all of one client's processes together; the largest logs give way first. */
export const DEFAULT_RETAINED_BYTES_TOTAL = 64 * 1_048_576;
/** `maxBytes` of each catch-up `process/read` after a reconnect or overflow. */
export const CATCH_UP_READ_MAX_BYTES = 1_048_576;

/**
 * Ack step for a process whose window is not known here (AckPacer). What stays below it is acked
 * once the current task is done, so even a smaller window keeps moving. A known window sets its own
 * step (ackStepBytes).
 */
export const ACK_COALESCE_BYTES = 65_536;
/** Writes queued while one is in flight are merged into one `process/write` of at most this size. */
export const MAX_WRITE_BATCH_BYTES = 1_048_576;

/** Default block size of streamed file transfers (the protocol's maximum). */
export const DEFAULT_FS_BLOCK_BYTES = 1_048_576;
/** Blocks a streamed transfer keeps in flight before it has measured the link (transfer-window.ts). */
export const FS_WINDOW_INITIAL_BLOCKS = 8;
/**
 * Never fewer in flight, however short the link's delay: the quickest answer measures the link,
 * not the pauses of the processes at either end. On a busy machine each of them (client, server,
 * anything relaying) waits its turn for a CPU for tens of milliseconds at a time, and two blocks in
 * flight let the link stand idle through each such pause (on a busy machine's loopback link, a
 * download with a floor of two went about 0.6 times as fast as with eight; see docs/files.md).
 */
export const FS_WINDOW_MIN_BLOCKS = 8;
/** The most one transfer holds in flight (and so in memory, on each side), whatever the link. */
export const FS_WINDOW_MAX_BYTES = 16 * 1_048_576;
/** How far back the throughput that sizes a transfer's window is measured. */
export const FS_WINDOW_RATE_SPAN_MS = 500;
/** How many times a streamed transfer reopens its file after a reconnect before it gives up. */
export const FS_STREAM_MAX_RESUMES = 5;

/** How much of a stdio server's stderr is kept for error messages. */
export const STDERR_TAIL_BYTES = 4_096;
/** After ending a stdio server's stdin, its process group gets this long before SIGKILL. */
export const STDIO_KILL_GRACE_MS = 2_000;
/** The one buffer a stdio server's stdout is read into between frame bodies (output-channel.ts). */
export const STDIO_READ_BUFFER_BYTES = 64 * 1024;
/**
 * Largest inbound message accepted, a WebSocket message or a stdio line. Codex answers
 * fs/readFile with the whole file in one message, so this admits files up to about 96 MiB; Tether's
 * server refuses fs/readFile above 32 MiB. A larger message closes the link with a clear error
 * instead of growing the client's memory without bound.
 */
export const MAX_INBOUND_MESSAGE_BYTES = 128 * 1_048_576;
/**
 * Malformed or unexpected messages one connection drops (each logged) before it ends with a
 * protocol error: a stray bad frame is survivable, a stream of them means the server is broken.
 */
export const MAX_PROTOCOL_ERRORS = 16;

/** `clientName` sent in `initialize`. */
export const CLIENT_NAME = 'tether';

/*
 * A folder walk (folder downloads, `tether cp -r`) believes a server's listings only this far: a
 * hostile or broken server could list an endless tree, each entry costing memory here and each
 * folder a local mkdir. The bounds sit far above real trees (a large checkout with node_modules has
 * a few hundred thousand entries); going past one fails the walk before anything is written.
 */
/** Entries of one folder's listing. */
export const WALK_MAX_ENTRIES_PER_FOLDER = 100_000;
/** Entries of the whole tree (files, folders and left-out ones); about 100 MB of paths at most. */
export const WALK_MAX_ENTRIES = 500_000;
/** Folders below the walked one; deeper trees are generated, not made by people (PATH_MAX is 4096). */
export const WALK_MAX_DEPTH = 256;

/**
 * How long a connection accepted by a port forward during an outage waits for the link before it
 * is refused (as the app's user actions wait, ACTION_LINK_WAIT_MS): long enough for a quick
 * resume, short enough that a browser shows an error instead of spinning.
 */
export const FORWARD_LINK_WAIT_MS = 10_000;

// ── HTTP forwarding through codex's `http/request` (forwarding/http-forward.ts) ──────────────

/**
 * Largest request body a forward to a codex server carries. codex takes a body whole, as base64 in
 * one message, and drops the connection on a WebSocket frame over 16 MiB (12 MiB of bytes as base64):
 * larger bodies are answered 413 here instead.
 */
export const HTTP_FORWARD_MAX_BODY_BYTES = 8 * 1024 * 1024;
/**
 * Requests of one forward waiting for their turn: codex serves one request of a connection at a
 * time, so they go out one after another; past this many waiting, a request is answered 503.
 */
export const HTTP_FORWARD_MAX_QUEUED = 64;
/**
 * How long a request waits for the target's response headers. codex holds its one request slot
 * until they come, so past this the request is answered 504 and the dedicated connection is
 * replaced (the old one would stay blocked behind the silent target).
 */
export const HTTP_FORWARD_HEAD_TIMEOUT_MS = 60_000;
/**
 * Response bytes held for a local client that reads slower than the host sends (http/request has no
 * flow control): past this the local connection is dropped rather than buffering without bound.
 */
export const HTTP_FORWARD_MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
/** Body pieces of one response that may arrive ahead of its headers or out of order. */
export const HTTP_FORWARD_MAX_HELD_DELTAS = 256;
/** How long a closing one-shot client waits for the server to end its session (session/end). */
export const SESSION_END_TIMEOUT_MS = 2_000;
