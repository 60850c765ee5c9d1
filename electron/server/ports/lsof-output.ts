// Parsers for what macOS hosts answer instead of /proc: `lsof -nP +c 0 -iTCP -sTCP:LISTEN -F pcn`
// (field output: a `p<pid>` line starts a process, `c<command>` names it, then per open file an
// `f<fd>` line and an `n<address>:<port>` line; other field letters may appear and are skipped) and
// `ps -axo pid=,ppid=` (two numbers a line). Written from lsof's documented field format and
// sample output; not run against a real Mac here.

export interface LsofListener {
  port: number;
  pid: number;
  name: string;
}

/** Whether lsof's host part (`*`, `127.0.0.1`, `[::1]`, `[::]`, …) is reachable from loopback. */
function reachableFromLoopback(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1).toLowerCase() : host;
  if (bare === '*' || bare === '0.0.0.0' || bare === '::' || bare === '::1') return true;
  if (/^127\.\d+\.\d+\.\d+$/.test(bare)) return true;
  return /^::ffff:127\.\d+\.\d+\.\d+$/.test(bare);
}

/** One entry per listening port reachable from loopback (the first process lsof names for it), ascending. */
export function parseLsofListeners(text: string): LsofListener[] {
  const byPort = new Map<number, LsofListener>();
  let pid: number | null = null;
  let name = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const field = line[0];
    const value = line.slice(1);
    if (field === 'p') {
      pid = /^\d+$/.test(value) ? Number(value) : null;
      name = '';
    } else if (field === 'c') {
      name = value;
    } else if (field === 'n' && pid !== null) {
      // `*:5173`, `127.0.0.1:5173`, `[::1]:5173`; a connection (`a->b`) is not a listener.
      const match = /^(.+):(\d+)$/.exec(value);
      if (!match || value.includes('->')) continue;
      const port = Number(match[2]);
      if (port < 1 || port > 65535 || !reachableFromLoopback(match[1]!)) continue;
      if (!byPort.has(port)) byPort.set(port, { port, pid, name });
    }
  }
  return [...byPort.values()].sort((a, b) => a.port - b.port);
}

/** pid → parent pid from `ps -axo pid=,ppid=`. */
export function parsePsParents(text: string): Map<number, number> {
  const parents = new Map<number, number>();
  for (const line of text.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s*$/.exec(line);
    if (match) parents.set(Number(match[1]), Number(match[2]));
  }
  return parents;
}
