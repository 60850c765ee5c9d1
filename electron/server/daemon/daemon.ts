// `server.mjs daemon`: the exec-server as a per-user daemon on a unix socket, the form it takes on
// SSH hosts. It claims its pidfile beside the socket, ignores SIGHUP (the SSH session that started
// it may end), holds dropped sessions for hours and exits when idle, removing socket and pidfile.
import path from 'node:path';
import { checkSocketPathLength } from './daemon-paths';
import { DEFAULT_DAEMON_IDLE_EXIT_MS, DEFAULT_DAEMON_SESSION_TTL_MS } from '../limits';
import { claimPidFile, releasePidFile } from './pid-lock';
import { assertPrivateDir } from './private-dir';
import { keepRunFilesFresh } from './run-files-keeper';
import { runExecServer } from '../server';
import { parseServerOptions, StartupError, type RawServerOptions } from '../server-options';

export type RawDaemonOptions = Pick<
  RawServerOptions,
  'listen' | 'sessionTtlMs' | 'idleExitMs' | 'exitedProcessTtlMs' | 'logLevel'
>;

/** `<dir>/<id>.sock` has its pidfile at `<dir>/<id>.pid`. */
export function pidFileOf(socketPath: string): string {
  return `${socketPath.replace(/\.sock$/, '')}.pid`;
}

export async function runDaemon(raw: RawDaemonOptions): Promise<void> {
  const options = parseServerOptions(raw, {
    sessionTtlMs: DEFAULT_DAEMON_SESSION_TTL_MS,
    idleExitMs: DEFAULT_DAEMON_IDLE_EXIT_MS,
    // Started detached in its own session, but a terminal hang-up must never end it either.
    hangup: 'ignore',
  });
  if (options.listen.kind !== 'unix')
    throw new StartupError('the daemon listens on `--listen unix:PATH` only');
  // Checked before the pidfile is claimed beside the socket (the listener checks both again).
  checkSocketPathLength(options.listen.path);
  assertPrivateDir(path.dirname(options.listen.path));
  const pidfile = pidFileOf(options.listen.path);
  const claim = claimPidFile(pidfile);
  if (!claim.claimed) {
    throw new StartupError(`a daemon is already running for ${options.listen.path} (pid ${claim.ownerPid})`);
  }
  process.on('exit', () => releasePidFile(pidfile));
  try {
    await runExecServer(options);
    keepRunFilesFresh([path.dirname(options.listen.path), options.listen.path, pidfile]);
  } catch (error) {
    releasePidFile(pidfile);
    throw error;
  }
}
