// The unix-socket listener (`--listen unix:PATH`): JSON lines (frames once agreed), one connection per
// client socket, no token. It binds only inside a directory private to us (private-dir.ts), which
// is its authentication, and makes the socket itself 0600 as well.
import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Connection, type ConnectionDeps } from '../rpc/connection';
import { localUserPrincipal } from './principal';
import { checkSocketPathLength } from '../daemon/daemon-paths';
import { StreamTransport } from '../rpc/stream-transport';
import { assertPrivateDir } from '../daemon/private-dir';
import { socketAnswers } from '../daemon/socket-probe';
import { SOCKET_CLIENT_HEARD_WITHIN_MS } from '../limits';
import { StartupError } from '../server-options';
import { errorMessage } from '../../../shared/error-message';

export interface UnixListener {
  /** Stops accepting, drops every open socket and removes the socket file. */
  close(): void;
  /** Client sockets open right now. */
  connectionCount(): number;
}

async function removeStaleSocket(socketPath: string): Promise<void> {
  let isSocket: boolean;
  try {
    isSocket = lstatSync(socketPath).isSocket();
  } catch {
    return;
  }
  if (!isSocket) throw new StartupError(`${socketPath} exists and is not a socket; refusing to replace it`);
  // A socket file nobody answers on (its server was killed) may be replaced; a live one may not.
  if (await socketAnswers(socketPath))
    throw new StartupError(`another server is already listening on ${socketPath}`);
  unlinkSync(socketPath);
}

export async function startUnixListener(
  socketPath: string,
  deps: ConnectionDeps,
  onConnectionsChanged: () => void = () => {},
): Promise<UnixListener> {
  checkSocketPathLength(socketPath);
  assertPrivateDir(path.dirname(socketPath));
  await removeStaleSocket(socketPath);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    let lastHeardAt = Date.now();
    socket.on('data', () => (lastHeardAt = Date.now()));
    const transport = new StreamTransport(
      'failed to parse JSON-RPC message from exec-server unix socket',
      socket,
      socket,
      () => socket.destroy(),
      // The peer is a bridge relaying for a client over SSH: an answer would come from the bridge,
      // not from the client, and after a drop the bridge lingers until sshd notices. So a resume
      // of a session held by a socket connection always takes it over (the newest link wins).
      () => false,
      // Reaping asks something else: is the client there to read what closed? Its keepalive pings
      // come through the bridge, so a client heard from lately is; a lingering bridge is silent.
      () => Date.now() - lastHeardAt < SOCKET_CLIENT_HEARD_WITHIN_MS,
    );
    const connection = new Connection(transport, deps, localUserPrincipal());
    transport.serve(connection);
    socket.once('close', () => {
      sockets.delete(socket);
      connection.handleClose();
      onConnectionsChanged();
    });
    onConnectionsChanged();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(new StartupError(`cannot listen on ${socketPath}: ${errorMessage(error)}`)),
    );
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
  return {
    close: () => {
      server.close();
      for (const socket of sockets) socket.destroy();
      try {
        unlinkSync(socketPath);
      } catch {
        // Already gone: nothing to clean up.
      }
    },
    connectionCount: () => sockets.size,
  };
}
