// The SSH bootstrap's private local directory: /tmp/tether-<uid>/ (0700, ours) holding one 0700
// subdirectory per bootstrap for the master's ControlPath, the askpass script and its socket.
// Short on purpose: unix socket paths are capped near 104 bytes (macOS) and 108 (Linux).
// When another user took /tmp/tether-<uid> first (only root could remove it from sticky /tmp),
// each bootstrap uses a fresh mkdtemp directory of its own instead. The CLI's shared per-host
// masters have their sockets directly in /tmp/tether-<uid>, named by a hash of what ssh -G resolves.
import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Parent of every bootstrap's directory; /tmp rather than os.tmpdir() to keep socket paths short. */
function userRoot(): string {
  return path.join('/tmp', `tether-${os.userInfo().uid}`);
}

/**
 * Makes `dir` (0700) or accepts it if it already is a directory of ours (closing it to everyone
 * else); false if it is not ours (another user's, or a symlink), which we must not share.
 */
function ownedDirectory(dir: string): boolean {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || stat.uid !== os.userInfo().uid) return false;
  // Ours, so nobody else can swap it between the lstat and the chmod (sticky /tmp).
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  return true;
}

/**
 * The directory that holds the CLI's shared per-host masters (see SshMaster), or null when
 * /tmp/tether-<uid> is not ours: then every connect keeps a master of its own.
 */
export function sharedMasterRoot(root: string = userRoot()): string | null {
  return ownedDirectory(root) ? root : null;
}

export class PrivateDir {
  readonly path: string;

  /** `root` is the usual parent, /tmp/tether-<uid> (tests give another). */
  constructor(root: string = userRoot()) {
    if (ownedDirectory(root)) {
      this.path = path.join(root, `ssh-${randomBytes(4).toString('hex')}`);
      mkdirSync(this.path, { mode: 0o700 });
    } else {
      this.path = mkdtempSync(`${root}-ssh-`);
    }
  }

  file(name: string): string {
    return path.join(this.path, name);
  }

  remove(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}
