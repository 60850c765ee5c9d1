// What a process the test started holds open, read from /proc/<pid>/fd (Linux): the target of each
// descriptor, a path for files and `socket:[inode]` for sockets. Descriptors closing mid-read are skipped.
import { readdirSync, readlinkSync } from 'node:fs';

export function openFds(pid: number): string[] {
  const targets: string[] = [];
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      targets.push(readlinkSync(`/proc/${pid}/fd/${fd}`));
    } catch {
      // Closed between the listing and the readlink.
    }
  }
  return targets;
}

/** How many sockets the process holds open (listeners and connections alike). */
export function openSocketCount(pid: number): number {
  return openFds(pid).filter((target) => target.startsWith('socket:')).length;
}
