// The unix-socket listener (`--listen unix:PATH`): JSON lines (frames once agreed), one connection per
// client socket (or, for a bridge that asks first, on the pipes it names: pipe-adoption.ts), no token. It binds only inside a directory private to us (private-dir.ts), which
// is its authentication, and makes the socket itself 0600 as well.
import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Connection, type ConnectionDeps } from '../rpc/connection';
import { localUserPrincipal } from './principal';
import { checkSocketPathLength } from '../daemon/daemon-paths';
import { StreamTransport } from '../rpc/stream-transport';
import {
  ADOPT_REQUEST_MAX_BYTES,
  ADOPT_REQUEST_PREFIX,
  ADOPTED_REPLY,
  adoptPipes,
  DECLINED_REPLY,
  parseAdoptRequest,
  type AdoptRequest,
} from '../daemon/pipe-adoption';
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

/**
 * Serves one link on `input`/`output`: a bridge relaying for a client over SSH or an exec session
 * (through the socket, or on the pipes the daemon adopted from it). `closer` closing ends it.
 */
function serveLink(
  input: net.Socket,
  output: net.Socket,
  closer: net.Socket,
  deps: ConnectionDeps,
  terminate: () => void,
): void {
  let lastHeardAt = Date.now();
  input.on('data', () => (lastHeardAt = Date.now()));
  const transport = new StreamTransport(
    'failed to parse JSON-RPC message from exec-server unix socket',
    input,
    output,
    terminate,
    // The peer is a bridge relaying for a client: an answer would come from the bridge, not from
    // the client, and after a drop the bridge lingers until sshd notices. So a resume of a
    // session held by such a link always takes it over (the newest link wins).
    () => false,
    // Reaping asks something else: is the client there to read what closed? Its keepalive pings
    // come through the bridge, so a client heard from lately is; a lingering bridge is silent.
    () => Date.now() - lastHeardAt < SOCKET_CLIENT_HEARD_WITHIN_MS,
  );
  const connection = new Connection(transport, deps, localUserPrincipal());
  transport.serve(connection);
  closer.once('close', () => connection.handleClose());
}

interface FirstLine {
  /** The first line (without its newline) when it may be an adoption request, else null. */
  line: string | null;
  /** What arrived after it (or everything, for a link), to be read as the link's input. */
  rest: Buffer;
}

/**
 * Waits for the start of what the client sends, pausing the socket once it knows: a JSON-RPC
 * client's first byte already differs from the request's prefix, so a link is told apart at its
 * first read and waits for nothing.
 */
function readFirstLine(socket: net.Socket, decided: (first: FirstLine) => void): void {
  let seen: Buffer = Buffer.alloc(0);
  const prefix = Buffer.from(ADOPT_REQUEST_PREFIX);
  const onData = (chunk: Buffer): void => {
    seen = seen.length === 0 ? chunk : Buffer.concat([seen, chunk]);
    const compared = Math.min(seen.length, prefix.length);
    const mayBeRequest = seen.subarray(0, compared).equals(prefix.subarray(0, compared));
    const newline = seen.indexOf(0x0a);
    if (mayBeRequest && newline < 0 && seen.length <= ADOPT_REQUEST_MAX_BYTES) return;
    socket.off('data', onData);
    socket.pause();
    if (mayBeRequest && newline >= 0) {
      decided({ line: seen.subarray(0, newline).toString('utf8'), rest: seen.subarray(newline + 1) });
    } else {
      decided({ line: null, rest: seen });
    }
    socket.resume();
  };
  socket.on('data', onData);
}

/**
 * Takes over the pipes a bridge names (pipe-adoption.ts) and serves the link on them. The bridge's
 * socket stays open as the link's lifeline: it closes when the link ends here, and the link ends
 * when it closes (the bridge was killed, its exec session ended).
 */
function adopt(control: net.Socket, request: AdoptRequest, deps: ConnectionDeps): void {
  const pipes = adoptPipes(request);
  if (typeof pipes === 'string') {
    control.end(`${DECLINED_REPLY} ${pipes}\n`);
    return;
  }
  const { input, output } = pipes;
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    input.destroy();
    output.destroy();
    control.destroy();
  };
  for (const stream of [input, output]) {
    stream.on('error', end);
    stream.once('close', end);
  }
  input.once('end', end);
  control.once('close', end);
  control.on('data', () => end()); // The bridge says nothing once adopted.
  control.write(`${ADOPTED_REPLY}\n`);
  serveLink(input, output, control, deps, end);
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
    socket.once('close', () => {
      sockets.delete(socket);
      onConnectionsChanged();
    });
    // What the client sends first says what this socket is: a link, or a bridge's adoption request.
    readFirstLine(socket, (first) => {
      const request = first.line === null ? null : parseAdoptRequest(first.line);
      if (first.line !== null && request === null) {
        // Its first line claimed to be a request and is not one: nothing a bridge of ours sends.
        socket.end(`${DECLINED_REPLY} malformed request\n`);
      } else if (request !== null) {
        adopt(socket, request, deps);
      } else {
        // Read again as the link's first input once the socket resumes.
        if (first.rest.length > 0) socket.unshift(first.rest);
        serveLink(socket, socket, socket, deps, () => socket.destroy());
      }
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
