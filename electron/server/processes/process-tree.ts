// Ends what a started process has running outside its process group. A descendant that called
// setsid (or setpgid) is out of reach of the group kill, and a pty or pipe closing does not end it
// either; while its parents live it is still in the process's tree, which /proc (Linux) shows by
// parent pid. So a kill first collects the whole tree, then kills the group, then every collected
// pid. Not found: a descendant whose parent exited first (it belongs to init, or to a subreaper,
// by then). Elsewhere than Linux, this finds nothing and the group kill is all there is.
import { readdirSync, readFileSync } from 'node:fs';

/** pid → parent pid of every process /proc shows now. */
function parentsNow(): Map<number, number> {
  const parents = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return parents;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (field 2) may hold spaces and parentheses: the fields after it do not.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // Gone meanwhile.
    }
  }
  return parents;
}

/** Every pid whose chain of parents leads to `root` (root itself excluded). */
export function descendantPids(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parentsNow()) {
    const siblings = children.get(ppid);
    if (siblings) siblings.push(pid);
    else children.set(ppid, [pid]);
  }
  const found: number[] = [];
  const pending = [root];
  while (pending.length > 0) {
    for (const child of children.get(pending.pop()!) ?? []) {
      found.push(child);
      pending.push(child);
    }
  }
  return found;
}

/** SIGKILLs each of `pids` that is still there. */
export function killPids(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
