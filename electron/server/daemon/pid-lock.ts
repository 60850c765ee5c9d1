// A file that holds the pid of its owner, created exclusively (O_EXCL): the daemon's pidfile and
// the bridges' start-up lock. A file whose owner died is stale and may be taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

function readPid(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export type ClaimResult = { claimed: true } | { claimed: false; ownerPid: number | null };

/**
 * Creates `file` holding our pid. If it exists and its owner is dead (or it holds no pid), it is
 * removed and the claim retried once; a live owner wins. Two claimants breaking the same stale
 * file at the same instant could both remove it; callers re-check what they guard (the socket).
 */
export function claimPidFile(file: string): ClaimResult {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      return { claimed: true };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = readPid(file);
    if (owner !== null && processAlive(owner)) return { claimed: false, ownerPid: owner };
    try {
      unlinkSync(file);
    } catch {
      // Someone else removed it first; retry the claim.
    }
  }
  return { claimed: false, ownerPid: readPid(file) };
}

/** Removes `file` if it still holds our pid (never someone else's claim). */
export function releasePidFile(file: string): void {
  if (readPid(file) !== process.pid) return;
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}
