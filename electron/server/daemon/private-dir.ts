// The one check that stands in for authentication on a unix socket: the socket's directory is a
// real directory owned by us that nobody else may enter. Anything else (another user's directory,
// a symlink, group or other access bits) is refused rather than repaired.
import { lstatSync, mkdirSync, type Stats } from 'node:fs';
import { StartupError } from '../server-options';
import { errorMessage } from '../../../shared/error-message';

/** A startup error of its own kind, so callers can tell "not private" from other failures. */
export class PrivateDirError extends StartupError {
  constructor(message: string) {
    super(message);
    this.name = 'PrivateDirError';
  }
}

type DirFacts = Pick<Stats, 'uid' | 'mode' | 'isDirectory' | 'isSymbolicLink'>;

/** Why `dir` (as lstat saw it) is not private to `uid`, or null when it is. */
export function privateDirProblem(dir: string, stats: DirFacts, uid: number): string | null {
  if (stats.isSymbolicLink()) return `${dir} is a symbolic link`;
  if (!stats.isDirectory()) return `${dir} is not a directory`;
  if (stats.uid !== uid) return `${dir} is owned by uid ${stats.uid}, not by us (uid ${uid})`;
  const mode = stats.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    return `${dir} has mode ${mode.toString(8).padStart(3, '0')}; it must be accessible only by its owner (700)`;
  }
  return null;
}

export function currentUid(): number {
  if (typeof process.getuid !== 'function') throw new PrivateDirError('unix sockets need a POSIX host');
  return process.getuid();
}

/** Throws PrivateDirError unless `dir` exists and is private to us. */
export function assertPrivateDir(dir: string): void {
  let stats: Stats;
  try {
    stats = lstatSync(dir);
  } catch (error) {
    throw new PrivateDirError(`cannot use ${dir}: ${errorMessage(error)}`);
  }
  const problem = privateDirProblem(dir, stats, currentUid());
  if (problem !== null) {
    throw new PrivateDirError(`refusing ${dir}: ${problem}. Remove it (or fix it) and try again.`);
  }
}

/** Creates `dir` with mode 0700 if it does not exist (its parent must), then asserts it is private. */
export function ensurePrivateDir(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new PrivateDirError(`cannot create ${dir}: ${errorMessage(error)}`);
    }
  }
  assertPrivateDir(dir);
}
