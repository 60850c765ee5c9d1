// `server.mjs daemon`: the exec-server as a per-user daemon on a unix socket, the form it takes on
// SSH hosts. It claims its pidfile beside the socket, ignores SIGHUP (the SSH session that started
// it may end), holds dropped sessions for hours and exits when idle, removing socket and pidfile.
// Its processes reach the user's agent only through a live bridge's offer (agent-link.ts).
import os from 'node:os';
import path from 'node:path';
import { agentEnv, safeRefresh } from './agent-link';
import { bundleEntry } from './bundle-identity';
import { hostMarkerPath, installedBundleId, removeHostMarker, writeHostMarker } from './host-marker';
import { checkSocketPathLength } from './daemon-paths';
import { AGENT_LINK_CHECK_MS, DEFAULT_DAEMON_IDLE_EXIT_MS, DEFAULT_DAEMON_SESSION_TTL_MS } from '../limits';
import { claimPidFile, releasePidFile } from './pid-lock';
import { assertPrivateDir } from './private-dir';
import { keepRunFilesFresh } from './run-files-keeper';
import { runExecServer } from '../server';
import {
  parseServerOptions,
  StartupError,
  type RawServerOptions,
  type ServerDefaults,
} from '../server-options';

export type RawDaemonOptions = Pick<
  RawServerOptions,
  'listen' | 'sessionTtlMs' | 'idleExitMs' | 'exitedProcessTtlMs' | 'logLevel'
>;

/** `<dir>/<id>.sock` has its pidfile at `<dir>/<id>.pid`. */
export function pidFileOf(socketPath: string): string {
  return `${socketPath.replace(/\.sock$/, '')}.pid`;
}

/** What the daemon assumes for options its bridge did not pass. */
export const DAEMON_DEFAULTS: ServerDefaults = {
  sessionTtlMs: DEFAULT_DAEMON_SESSION_TTL_MS,
  idleExitMs: DEFAULT_DAEMON_IDLE_EXIT_MS,
  // Started detached in its own session, but a terminal hang-up must never end it either.
  hangup: 'ignore',
};

export async function runDaemon(raw: RawDaemonOptions): Promise<void> {
  const options = parseServerOptions(raw, DAEMON_DEFAULTS);
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
  const agentPaths = { dir: path.dirname(options.listen.path), socket: options.listen.path };
  // A home shared with other hosts: tell their gc that this host runs the bundle.
  const installed = installedBundleId(bundleEntry(), os.homedir());
  const marker = installed === null ? null : hostMarkerPath(os.homedir(), installed);
  if (marker !== null) {
    writeHostMarker(marker);
    process.on('exit', () => removeHostMarker(marker));
  }
  try {
    await runExecServer({ ...options, childBaseEnv: () => agentEnv(agentPaths) });
    // A bridge killed without a word leaves its offer behind: it is dropped within this bound
    // even when no process starts meanwhile.
    setInterval(() => safeRefresh(agentPaths), AGENT_LINK_CHECK_MS).unref();
    keepRunFilesFresh([
      path.dirname(options.listen.path),
      options.listen.path,
      pidfile,
      ...(marker !== null ? [marker] : []),
    ]);
  } catch (error) {
    releasePidFile(pidfile);
    throw error;
  }
}
