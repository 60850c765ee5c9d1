// The listening TCP sockets of a Linux host as /proc/net/tcp and /proc/net/tcp6 list them: the ones
// a loopback client can reach (bound to loopback or to any address), with the socket inode that
// /proc/<pid>/fd links name (`socket:[INODE]`). Read by the server's `ports/listening` and, against
// servers without it (codex), by the app through fs/readFile.

const LISTEN = '0A';
const IPV4_ANY = '00000000';
const IPV6_ANY = '0'.repeat(32);
/** ::1 as /proc writes it: four 32-bit words, each in the host's (little-endian) byte order. */
const IPV6_LOOPBACK = '00000000000000000000000001000000';
/** ::ffff:0:0/96, before an IPv4 address in the last word. */
const IPV4_MAPPED = '0000000000000000FFFF0000';

export interface ListeningSocket {
  port: number;
  /** The socket's inode ("0" when /proc hides it). */
  inode: string;
}

/** Whether a hex local address of /proc/net/tcp{,6} is loopback or any. */
function reachableFromLoopback(hex: string): boolean {
  const address = hex.toUpperCase();
  if (address.length === 8) return address === IPV4_ANY || address.endsWith('7F'); // 127.0.0.0/8
  if (address === IPV6_ANY || address === IPV6_LOOPBACK) return true;
  return address.startsWith(IPV4_MAPPED) && address.endsWith('7F');
}

/** The listening sockets of one /proc/net/tcp or tcp6 text, in the order listed. */
export function listeningSocketsOf(text: string): ListeningSocket[] {
  const sockets: ListeningSocket[] = [];
  for (const line of text.split('\n').slice(1)) {
    // sl local rem st tx:rx tr:when retrnsmt uid timeout inode …
    const fields = line.trim().split(/\s+/);
    const [, local, , state] = fields;
    if (state !== LISTEN || !local) continue;
    const [address, portHex] = local.split(':');
    if (!address || !portHex || !reachableFromLoopback(address)) continue;
    const port = parseInt(portHex, 16);
    const inode = fields[9] ?? '0';
    if (port > 0 && port <= 65535) sockets.push({ port, inode: /^\d+$/.test(inode) ? inode : '0' });
  }
  return sockets;
}

/** The listening ports of one /proc/net/tcp or tcp6 text, ascending, each once. */
export function listeningPortsOf(text: string): number[] {
  return [...new Set(listeningSocketsOf(text).map((s) => s.port))].sort((a, b) => a - b);
}
