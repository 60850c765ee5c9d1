// A file that holds the pid of its owner, created exclusively: the daemon's pidfile and the bridges'
// start-up lock. A file whose owner died is stale and may be taken over.
import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';

/** The pid in `file`; null when it holds none; 'gone' when there is no such file (any more). */
function readPid(file: string): number | null | 'gone' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : null;
  }
  const pid = Number(text.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
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
 * Creates `file` holding our pid, whole from its first instant: the pid is written to a file of our
 * own, which is then hard-linked to `file` (the link fails if `file` exists). A file created empty
 * and written after, as O_EXCL alone does, could be met empty by another claimant, taken for stale
 * and removed under its live owner; both then held the lock and started a daemon each. Where hard
 * links are refused (some network or FUSE filesystems), O_EXCL it is.
 */
function createHoldingPid(file: string): boolean {
  const own = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(own, `${process.pid}\n`, { mode: 0o600, flag: 'wx' });
  } catch {
    return createExclusive(file);
  }
  try {
    linkSync(own, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') return createExclusive(file);
    throw error;
  } finally {
    unlinkSync(own);
  }
}

function createExclusive(file: string): boolean {
  try {
    const fd = openSync(file, 'wx', 0o600);
    try {
      writeSync(fd, `${process.pid}\n`);
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Creates `file` holding our pid. If it exists and its owner is dead (or it holds no pid), it is
 * removed and the claim retried; a live owner wins. Two claimants breaking the same stale
 * file at the same instant could both remove it; callers re-check what they guard (the socket).
 */
export function claimPidFile(file: string): ClaimResult {
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    if (createHoldingPid(file)) return { claimed: true };
    const owner = readPid(file);
    // Released between our try and our look: try again, without removing anything (a file there
    // now is a new claim, which removing would break under its owner).
    if (owner === 'gone') continue;
    if (owner !== null && processAlive(owner)) return { claimed: false, ownerPid: owner };
    try {
      unlinkSync(file);
    } catch {
      // Someone else removed it first; retry the claim.
    }
  }
  const owner = readPid(file);
  return { claimed: false, ownerPid: owner === 'gone' ? null : owner };
}

/** How often one claim tries while others keep releasing and re-claiming the lock in between. */
const CLAIM_ATTEMPTS = 5;

/** Removes `file` if it still holds our pid (never someone else's claim). */
export function releasePidFile(file: string): void {
  if (readPid(file) !== process.pid) return;
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}
