// Where Tether's exec-server intentionally answers differently from codex 0.171.0. Scenarios name
// one of these ids instead of comparing transcripts, and docs/compatibility.md explains each one.

export const INTENDED_DIFFERENCES = {
  'concurrent-requests':
    'Tether serves the requests of one connection concurrently, so a long-polling process/read does not hold up environment/status or other calls; codex serves them one at a time by default.',
  'tether-extensions':
    'Tether advertises capabilities and implements process/resize, extra signal names, fs/rename, fs/open mode update, pid in the process/start result and a typed data.kind on unknown-process errors; codex rejects these requests or omits the fields.',
  'non-loopback-listen':
    'Tether refuses to listen beyond loopback unless --ws-auth is set to a token or JWT mode; codex binds any address without authentication.',
  'ws-auth-required':
    'Tether refuses any WebSocket listener, loopback too, without --ws-auth (--ws-auth none is the explicit trial mode); codex serves loopback without authentication.',
  'stdio-sigterm':
    'In stdio mode Tether exits on SIGTERM after killing its processes; codex 0.171.0 kills the processes but keeps running until stdin closes.',
  'output-chunking':
    'Tether joins the reads of a busy output stream into fewer, larger chunks, so a fast writer cannot make it produce 50,000 tiny chunks; codex emits one chunk per pipe read.',
  'write-id-reuse':
    'Tether writes a process/write whose writeId it has seen with other bytes (it cannot be a resend); codex answers it accepted from its dedup window and drops the bytes.',
} as const;

export type DifferenceId = keyof typeof INTENDED_DIFFERENCES;
