// Where a user's exec-server daemon of one bundle version lives on a host: the private run
// directory (/tmp/tether-<uid>-<home key>, a fallback recorded in ~/.tether/run-dir, or
// $TETHER_RUN_DIR) and, in it, the socket, pidfile, start-up lock and log named after the bundle
// id `<version>-<hash>`.
import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  HOME_KEY_LENGTH,
  REMOTE_RUN_DIR_ENV,
  REMOTE_RUN_DIR_PREFIX,
  RUN_DIR_RECORD,
} from '../../../shared/remote-bundle';
import { assertPrivateDir, currentUid, ensurePrivateDir, PrivateDirError } from './private-dir';
import { StartupError } from '../server-options';
import { errorMessage } from '../../../shared/error-message';

/** sun_path holds 108 bytes on Linux (104 on the BSDs and macOS), the terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

export interface DaemonPaths {
  dir: string;
  socket: string;
  pidfile: string;
  lock: string;
  log: string;
}

export { RUN_DIR_RECORD };

/**
 * A short key of the home directory: one uid may have several homes on a host (a container's
 * bind mount, sudo -E, an SSH SetEnv), each with its own ~/.tether, and they must never share a
 * daemon, whose sessions and bundle belong to one home.
 */
export function homeKey(home: string): string {
  return createHash('sha256').update(home).digest('hex').slice(0, HOME_KEY_LENGTH);
}

/**
 * The run directory, created 0700 when missing. It must be the same for every SSH session of the
 * user, and outlive them all. So not
 * $XDG_RUNTIME_DIR: logind removes /run/user/<uid> when the user's last session ends (an SSH drop
 * often is that), taking the socket of a daemon that is still running, and it is unset in
 * sessions without PAM. Not $TMPDIR either, which may differ per session. tmux decided the same.
 */
export function ensureRunDir(env: NodeJS.ProcessEnv = process.env, home: string = os.homedir()): string {
  const override = env[REMOTE_RUN_DIR_ENV];
  if (override !== undefined && override !== '') {
    if (!path.isAbsolute(override)) {
      throw new StartupError(`${REMOTE_RUN_DIR_ENV} must be an absolute path, got \`${override}\``);
    }
    ensurePrivateDir(override);
    return override;
  }
  const dir = `${REMOTE_RUN_DIR_PREFIX}${currentUid()}-${homeKey(home)}`;
  try {
    ensurePrivateDir(dir);
    return dir;
  } catch (error) {
    // Anyone may create this name in /tmp first (and only root could remove it): never share it,
    // and never let that block us either.
    if (!(error instanceof PrivateDirError)) throw error;
    return fallbackRunDir(home);
  }
}

/**
 * The run directory of a home whose usual one is taken: a fresh mkdtemp directory (a name nobody
 * can guess ahead), recorded in ~/.tether/run-dir so every later bridge, daemon and gc of this
 * home finds the same one. A recorded directory that is gone or not private any more (a /tmp
 * cleaner, then someone else) is replaced. The record is published with link(2), so of two
 * bridges falling back at once both end up in the directory of the first.
 */
function fallbackRunDir(home: string): string {
  const record = path.join(home, RUN_DIR_RECORD);
  for (let attempt = 0; attempt < 3; attempt++) {
    let recorded: string | null = null;
    try {
      recorded = readFileSync(record, 'utf8').trim();
    } catch {
      // No record yet.
    }
    if (recorded !== null) {
      try {
        if (!path.isAbsolute(recorded)) throw new PrivateDirError(`${record} does not hold an absolute path`);
        assertPrivateDir(recorded);
        return recorded;
      } catch (error) {
        if (!(error instanceof PrivateDirError)) throw error;
        rmSync(record, { force: true });
      }
    }
    mkdirSync(path.dirname(record), { recursive: true, mode: 0o700 });
    const fresh = mkdtempSync(path.join('/tmp', `tether-${currentUid()}-`));
    const draft = `${record}.${process.pid}`;
    writeFileSync(draft, `${fresh}\n`, { mode: 0o600 });
    try {
      linkSync(draft, record);
      return fresh;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new StartupError(`cannot record the run directory in ${record}: ${errorMessage(error)}`);
      }
      rmdirSync(fresh);
    } finally {
      rmSync(draft, { force: true });
    }
  }
  throw new StartupError(`cannot settle on a run directory for ${home} (see ${record})`);
}

export function checkSocketPathLength(socket: string): void {
  const bytes = Buffer.byteLength(socket);
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw new StartupError(
      `unix socket path ${socket} is ${bytes} bytes; the limit is ${MAX_SOCKET_PATH_BYTES}. ` +
        `Use a shorter directory (for the daemon: a shorter $${REMOTE_RUN_DIR_ENV}, or unset it for /tmp).`,
    );
  }
}

export function daemonPaths(dir: string, bundleId: string): DaemonPaths {
  const base = path.join(dir, bundleId);
  const paths = {
    dir,
    socket: `${base}.sock`,
    pidfile: `${base}.pid`,
    lock: `${base}.lock`,
    log: `${base}.log`,
  };
  checkSocketPathLength(paths.socket);
  return paths;
}
