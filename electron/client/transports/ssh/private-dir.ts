// The SSH bootstrap's private local directory: /tmp/tether-<uid>/ (0700, ours) holding one 0700
// subdirectory per bootstrap for the master's ControlPath, the askpass script and its socket.
// Short on purpose: unix socket paths are capped near 104 bytes (macOS) and 108 (Linux).
import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ClientError } from '../../client-error';

/** Parent of every bootstrap's directory; /tmp rather than os.tmpdir() to keep socket paths short. */
function userRoot(): string {
  return path.join('/tmp', `tether-${os.userInfo().uid}`);
}

/** Makes `dir` (0700) or accepts it if it already is ours and closed to everyone else. */
function ensureOwnedDirectory(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(dir);
  // Another user could have made it first to read our sockets: refuse rather than share it.
  if (!stat.isDirectory() || stat.uid !== os.userInfo().uid) {
    throw new ClientError(
      'invalidArgument',
      `${dir} is not a directory owned by you; remove it so Tether can keep its SSH sockets private.`,
    );
  }
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

export class PrivateDir {
  readonly path: string;

  constructor() {
    const root = userRoot();
    ensureOwnedDirectory(root);
    this.path = path.join(root, `ssh-${randomBytes(4).toString('hex')}`);
    mkdirSync(this.path, { mode: 0o700 });
  }

  file(name: string): string {
    return path.join(this.path, name);
  }

  remove(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}
