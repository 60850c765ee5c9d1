// `ports/listening` (capability `tetherListeningPorts`): the TCP ports listening on this host's
// loopback or any address, each with the process that listens when this server may see it, and
// that process's chain of parents, so a client can tell whether a process it started (or one of
// their descendants) opened it. One call does on the host what would take a client thousands of
// fs/* round trips.
//
// Linux: /proc/net/tcp{,6} give each socket's inode; the owner is the pid whose /proc/<pid>/fd holds
// a `socket:[inode]` link. That walk is the costly part, so an inode's owner is remembered while it
// keeps listening, and only new inodes are looked for, newest pids first, within a time budget.
// Sockets of other users' processes (unreadable fds) are listed with no owner.
// macOS: `lsof` and `ps` (lsof-output.ts). Elsewhere: no listing at all (the capability is not
// advertised).
import { execFile } from 'node:child_process';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { listeningSocketsOf } from '../../../shared/listening-sockets';
import type { ListeningPortEntry } from '../../../shared/protocol';
import { parseLsofListeners, parsePsParents } from './lsof-output';

/** How long one lookup of new sockets' owners may walk /proc/<pid>/fd before it gives up. */
const OWNER_SCAN_BUDGET_MS = 1_000;
/** A socket whose owner a walk cut short did not find is looked for again after this long. */
const OWNER_RETRY_MS = 10_000;
/** Processes whose fds are read at once (the reads go to libuv's thread pool). */
const WALK_BATCH = 8;
/** Parents followed up from an owner (init is reached long before this on a real host). */
const MAX_PARENT_DEPTH = 32;
/** Ports answered at most (a host with more listeners gets the lowest ones). */
export const MAX_LISTED_PORTS = 1024;
const COMMAND_TIMEOUT_MS = 5_000;

export function listeningPortsSupported(platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'linux' || platform === 'darwin';
}

interface Owner {
  pid: number;
}

export class ListeningPortScanner {
  /**
   * inode → its owner, for listening inodes only: null when a whole walk did not find it (another
   * user's), a number (epoch ms) when a walk cut short did not, until which it is not looked for.
   */
  private readonly owners = new Map<string, Owner | null | number>();
  private inFlight: Promise<ListeningPortEntry[]> | null = null;

  constructor(private readonly platform: NodeJS.Platform = process.platform) {}

  /** The listening ports now; concurrent callers share one scan. */
  scan(): Promise<ListeningPortEntry[]> {
    this.inFlight ??= (this.platform === 'darwin' ? scanDarwin() : this.scanLinux()).finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async scanLinux(): Promise<ListeningPortEntry[]> {
    const texts = await Promise.all(
      ['/proc/net/tcp', '/proc/net/tcp6'].map((file) => readFile(file, 'latin1').catch(() => '')),
    );
    const sockets = texts.flatMap(listeningSocketsOf);
    const listening = new Set(sockets.map((s) => s.inode));
    for (const inode of this.owners.keys()) if (!listening.has(inode)) this.owners.delete(inode);
    const now = Date.now();
    const wanted = new Set(
      [...listening].filter((inode) => {
        const known = this.owners.get(inode);
        return inode !== '0' && (known === undefined || (typeof known === 'number' && known <= now));
      }),
    );
    if (wanted.size > 0) await this.findOwners(wanted);

    const byPort = new Map<number, number | null>();
    for (const { port, inode } of sockets) {
      const known = this.owners.get(inode);
      const pid = typeof known === 'object' && known !== null ? known.pid : null;
      if (!byPort.has(port) || (byPort.get(port) === null && pid !== null)) byPort.set(port, pid);
    }
    const ports = [...byPort.keys()].sort((a, b) => a - b).slice(0, MAX_LISTED_PORTS);
    return Promise.all(ports.map((port) => describeLinux(port, byPort.get(port) ?? null)));
  }

  /** Walks /proc/<pid>/fd, newest pid first, until every wanted inode is found or time is up. */
  private async findOwners(wanted: Set<string>): Promise<void> {
    const deadline = Date.now() + OWNER_SCAN_BUDGET_MS;
    const pids = (await readdir('/proc').catch(() => []))
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number)
      .sort((a, b) => b - a);
    let whole = true;
    for (let i = 0; i < pids.length && wanted.size > 0; i += WALK_BATCH) {
      if (Date.now() > deadline) {
        whole = false;
        break;
      }
      const batch = pids.slice(i, i + WALK_BATCH);
      const found = await Promise.all(batch.map((pid) => socketInodesOf(pid)));
      batch.forEach((pid, k) => {
        for (const inode of found[k]!) if (wanted.delete(inode)) this.owners.set(inode, { pid });
      });
    }
    // Not found in a whole walk: another user's, or gone. Cut short (a busy host): looked for again
    // later, so a walk's cost is not paid at every poll.
    for (const inode of wanted) this.owners.set(inode, whole ? null : Date.now() + OWNER_RETRY_MS);
  }
}

/** The socket inodes among `pid`'s open fds (none when they cannot be read). */
async function socketInodesOf(pid: number): Promise<string[]> {
  const dir = `/proc/${pid}/fd`;
  const fds = await readdir(dir).catch(() => [] as string[]);
  const links = await Promise.all(fds.map((fd) => readlink(`${dir}/${fd}`).catch(() => '')));
  const inodes: string[] = [];
  for (const link of links) {
    const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
    if (inode) inodes.push(inode);
  }
  return inodes;
}

async function describeLinux(port: number, pid: number | null): Promise<ListeningPortEntry> {
  if (pid === null) return { port, pid: null, name: null, parentPids: [] };
  const name = (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim() || null;
  const parentPids: number[] = [];
  let current = pid;
  while (parentPids.length < MAX_PARENT_DEPTH) {
    const parent = await parentOf(current);
    if (parent === null || parent <= 0) break;
    parentPids.push(parent);
    if (parent === 1) break;
    current = parent;
  }
  return { port, pid, name, parentPids };
}

async function parentOf(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: the fields after it do not.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : null;
  } catch {
    return null;
  }
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: COMMAND_TIMEOUT_MS, maxBuffer: 8 * 1024 * 1024 }, (_error, stdout) =>
      // lsof exits 1 when it found nothing (or some files were unreadable): its output still counts.
      resolve(typeof stdout === 'string' ? stdout : ''),
    );
  });
}

/** macOS: lsof's listeners (one entry per port) with ps's parent table. Untested on a real Mac. */
async function scanDarwin(): Promise<ListeningPortEntry[]> {
  const [lsof, ps] = await Promise.all([
    run('lsof', ['-nP', '+c', '0', '-iTCP', '-sTCP:LISTEN', '-F', 'pcn']),
    run('ps', ['-axo', 'pid=,ppid=']),
  ]);
  const parents = parsePsParents(ps);
  return parseLsofListeners(lsof)
    .slice(0, MAX_LISTED_PORTS)
    .map(({ port, pid, name }) => {
      const parentPids: number[] = [];
      for (let p = parents.get(pid); p !== undefined && p > 0 && parentPids.length < MAX_PARENT_DEPTH;) {
        parentPids.push(p);
        if (p === 1) break;
        p = parents.get(p);
      }
      return { port, pid, name, parentPids };
    });
}
