// The TCP ports listening on a host's loopback or any address, and which process Tether started
// (or which of their descendants) listens on each. Tether's server answers in one call
// (`ports/listening`: pid, name and parents of each listener); against servers without it (codex)
// the app reads Linux's /proc/net/tcp and tcp6 through fs/readFile, which gives the ports but not
// their processes. A host without /proc (and no extension) lists none.
import type { ListeningPortView, ProcessView } from '../../../shared/ipc';
import { TetherCapability } from '../../../shared/protocol';
import { listeningPortsOf } from '../../../shared/listening-sockets';
import type { ExecServerClientApi } from '../../client/api';

export interface HostListener {
  port: number;
  pid: number | null;
  name: string | null;
  /** The listener's parent, its parent, … (empty when unknown). */
  parentPids: number[];
}

export async function listeningPorts(client: ExecServerClientApi): Promise<HostListener[]> {
  if (client.hasCapability(TetherCapability.listeningPorts)) return client.listeningPorts();
  const texts = await Promise.all(
    ['/proc/net/tcp', '/proc/net/tcp6'].map((path) =>
      client.fs.readFile(path).then(
        (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1'),
        () => '',
      ),
    ),
  );
  const ports = [...new Set(texts.flatMap(listeningPortsOf))].sort((a, b) => a - b);
  return ports.map((port) => ({ port, pid: null, name: null, parentPids: [] }));
}

/** The process of `processes` (Tether's) that is the listener or one of its ancestors, if any. */
export function startedBy(listener: HostListener, processes: readonly ProcessView[]): ProcessView | null {
  if (listener.pid === null) return null;
  const chain = [listener.pid, ...listener.parentPids];
  for (const pid of chain) {
    const found = processes.find((p) => p.pid === pid && (p.state === 'running' || p.state === 'starting'));
    if (found) return found;
  }
  return null;
}

export function listeningView(listener: HostListener, processes: readonly ProcessView[]): ListeningPortView {
  return {
    port: listener.port,
    process: listener.pid === null ? null : { pid: listener.pid, name: listener.name ?? '?' },
    startedByTether: startedBy(listener, processes) !== null,
  };
}
