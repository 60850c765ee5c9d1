// Where a user's exec-server daemon of one bundle version lives on a host: the private run
// directory ($XDG_RUNTIME_DIR/tether, else /tmp/tether-<uid>) and, in it, the socket, pidfile,
// start-up lock and log named after the bundle id `<version>-<hash>`.
import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import path from 'node:path';
import { currentUid, ensurePrivateDir } from './private-dir';
import { StartupError } from './server-options';

/** sun_path holds 108 bytes on Linux (104 on the BSDs and macOS), the terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

export interface DaemonPaths {
  dir: string;
  socket: string;
  pidfile: string;
  lock: string;
  log: string;
}

/** $XDG_RUNTIME_DIR when it is a directory of ours we can write to (systemd makes it 0700 per user). */
function usableRuntimeDir(env: NodeJS.ProcessEnv, uid: number): string | null {
  const dir = env.XDG_RUNTIME_DIR;
  if (!dir || !path.isAbsolute(dir)) return null;
  try {
    const stats = statSync(dir);
    if (!stats.isDirectory() || stats.uid !== uid) return null;
    accessSync(dir, fsConstants.W_OK | fsConstants.X_OK);
    return dir;
  } catch {
    return null;
  }
}

/** The run directory, created 0700 when missing; throws PrivateDirError if it is not ours alone. */
export function ensureRunDir(env: NodeJS.ProcessEnv = process.env): string {
  const uid = currentUid();
  const runtime = usableRuntimeDir(env, uid);
  const dir = runtime ? path.join(runtime, 'tether') : path.join('/tmp', `tether-${uid}`);
  ensurePrivateDir(dir);
  return dir;
}

export function checkSocketPathLength(socket: string): void {
  const bytes = Buffer.byteLength(socket);
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw new StartupError(
      `unix socket path ${socket} is ${bytes} bytes; the limit is ${MAX_SOCKET_PATH_BYTES}. ` +
        'Use a shorter directory (for the daemon: a shorter $XDG_RUNTIME_DIR, or unset it for /tmp).',
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
