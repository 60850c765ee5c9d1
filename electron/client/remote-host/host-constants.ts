// What a host needs to run Tether's server, and where the uploaded runtimes live on it.

/** The oldest Node the exec-server runs on; an older host node means uploading our runtime. */
export const MIN_HOST_NODE_MAJOR = 20;
/** The runtime and node-pty's prebuilds need at least this glibc. */
export const MIN_GLIBC = [2, 28] as const;
/** Uploaded Node runtimes live in `~/.tether/runtime/node-v<version>-linux-<arch>/` on a host. */
export const REMOTE_RUNTIME_ROOT = '.tether/runtime';
/**
 * The bridge's launch record, `~/.tether/server/<version>-<hash>/launch-node`: the node a full
 * setup checked for this bundle (its node-pty loads), which a later connect starts the bridge with
 * in the same host command that checks the bundle, so a warm connect is one command on the host.
 */
export const LAUNCH_RECORD = 'launch-node';
/** The checked bridge found the host unprepared (no bundle, another one, or no launch record). */
export const HOST_UNPREPARED_EXIT = 91;
/**
 * The shell's statuses for a command it could not run (126) or find (127). Before the bridge's
 * preamble (which the bridge's node prints itself) they mean the recorded node did not start: a
 * home shared between hosts or containers (a mounted volume) can hold a record whose node cannot
 * run on this one (no glibc, another architecture). The host is then examined as an unprepared
 * one, and the probe says what is wrong.
 */
export const SHELL_COULD_NOT_RUN_EXITS: readonly number[] = [126, 127];
