// Where a user's exec-server daemon of one bundle version lives on a host: the private run
// directory (/tmp/tether-<uid>, or $TETHER_RUN_DIR) and, in it, the socket, pidfile, start-up
// lock and log named after the bundle id `<version>-<hash>`.
import path from 'node:path';
import { REMOTE_RUN_DIR_ENV, REMOTE_RUN_DIR_PREFIX } from '../../../shared/remote-bundle';
import { currentUid, ensurePrivateDir } from './private-dir';
import { StartupError } from '../server-options';

/** sun_path holds 108 bytes on Linux (104 on the BSDs and macOS), the terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

export interface DaemonPaths {
  dir: string;
  socket: string;
  pidfile: string;
  lock: string;
  log: string;
}

/**
 * The run directory, created 0700 when missing; throws PrivateDirError if it is not ours alone.
 * It must be the same for every SSH session of the user, and outlive them all. So not
 * $XDG_RUNTIME_DIR: logind removes /run/user/<uid> when the user's last session ends (an SSH drop
 * often is that), taking the socket of a daemon that is still running, and it is unset in
 * sessions without PAM. Not $TMPDIR either, which may differ per session. tmux decided the same.
 */
export function ensureRunDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env[REMOTE_RUN_DIR_ENV];
  let dir: string;
  if (override !== undefined && override !== '') {
    if (!path.isAbsolute(override)) {
      throw new StartupError(`${REMOTE_RUN_DIR_ENV} must be an absolute path, got \`${override}\``);
    }
    dir = override;
  } else {
    dir = `${REMOTE_RUN_DIR_PREFIX}${currentUid()}`;
  }
  ensurePrivateDir(dir);
  return dir;
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
