// Every number that shapes the SSH login and link: ssh's keepalive and connect timeouts and the
// default session lifetime on the host (what a host needs is remote-host/host-constants.ts).
// docs/ssh.md explains them; change them here only.

/** ssh `ServerAliveInterval` × `ServerAliveCountMax`: a silent master is given up after ~15 s. */
export const SSH_SERVER_ALIVE_INTERVAL_S = 5;
export const SSH_SERVER_ALIVE_COUNT = 3;
/** ssh `ConnectTimeout` for the master's TCP connect. */
export const SSH_CONNECT_TIMEOUT_S = 10;
/**
 * How long the host's daemon keeps a session whose link dropped (VS Code keeps 3 h): long enough
 * for a laptop to sleep through a meeting. The client keeps reconnecting for as long.
 */
export const DEFAULT_SSH_SESSION_TTL_MS = 3 * 60 * 60 * 1000;
/** ssh's own exit status when the connection, not the command it ran, failed. */
export const SSH_CONNECTION_FAILED_EXIT = 255;
/**
 * ssh `ControlPersist` of the CLI's shared per-host master: it stays this long after its last
 * session ends, so the next `tether run --ssh` to the same host within it signs in no more.
 */
export const SSH_SHARED_MASTER_PERSIST_S = 300;
