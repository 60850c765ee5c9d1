// The TCP ports listening on a host's loopback or any address, read from Linux's /proc/net/tcp and
// /proc/net/tcp6 through the server's fs/readFile (so it needs no method of its own and works
// against codex servers too). Another OS (or a host hiding /proc) lists none.
import type { ExecServerClientApi } from '../../client/api';

const LISTEN = '0A';
const IPV4_ANY = '00000000';
const IPV6_ANY = '0'.repeat(32);
/** ::1 as /proc writes it: four 32-bit words, each in the host's (little-endian) byte order. */
const IPV6_LOOPBACK = '00000000000000000000000001000000';
/** ::ffff:0:0/96, before an IPv4 address in the last word. */
const IPV4_MAPPED = '0000000000000000FFFF0000';

/** Whether a hex local address of /proc/net/tcp{,6} is loopback or any. */
function reachableFromLoopback(hex: string): boolean {
  const address = hex.toUpperCase();
  if (address.length === 8) return address === IPV4_ANY || address.endsWith('7F'); // 127.0.0.0/8
  if (address === IPV6_ANY || address === IPV6_LOOPBACK) return true;
  return address.startsWith(IPV4_MAPPED) && address.endsWith('7F');
}

/** The listening ports of one /proc/net/tcp or tcp6 text, ascending, each once. */
export function listeningPortsOf(text: string): number[] {
  const ports = new Set<number>();
  for (const line of text.split('\n').slice(1)) {
    const [, local, , state] = line.trim().split(/\s+/);
    if (state !== LISTEN || !local) continue;
    const [address, portHex] = local.split(':');
    if (!address || !portHex || !reachableFromLoopback(address)) continue;
    const port = parseInt(portHex, 16);
    if (port > 0) ports.add(port);
  }
  return [...ports].sort((a, b) => a - b);
}

export async function listeningPorts(client: ExecServerClientApi): Promise<number[]> {
  const texts = await Promise.all(
    ['/proc/net/tcp', '/proc/net/tcp6'].map((path) =>
      client.fs.readFile(path).then(
        (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1'),
        () => '',
      ),
    ),
  );
  return [...new Set(texts.flatMap(listeningPortsOf))].sort((a, b) => a - b);
}
