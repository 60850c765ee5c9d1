// TCP peers for the port-forwarding tests: servers on a loopback address, and a local client
// that sends a payload and collects what comes back, or reports how its connection ended.
import { createHash } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { WebSocketServer } from 'ws';

export const MiB = 1024 * 1024;

/** A TCP server on `host` that runs `onSocket` for each connection (allowHalfOpen). */
export async function tcpServer(host: string, onSocket: (socket: net.Socket) => void): Promise<net.Server> {
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    // A reset (the point of several tests) must not become an uncaught error here.
    socket.on('error', () => undefined);
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return server;
}

export function portOf(server: net.Server | WebSocketServer): number {
  return (server.address() as net.AddressInfo).port;
}

/** Connects to 127.0.0.1:port, sends `payload` and ends; resolves with all it got back before the end. */
export function exchange(port: number, payload: Buffer, host = '127.0.0.1'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port, allowHalfOpen: true });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      socket.end();
      resolve(Buffer.concat(chunks));
    });
    socket.on('error', reject);
    socket.on('connect', () => socket.end(payload));
  });
}

/** Resolves how a local connection ended: 'reset'/'closed' and after how many ms, bytes received. */
export function outcome(port: number): Promise<{ how: string; ms: number; bytes: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect({ host: '127.0.0.1', port });
    let bytes = 0;
    let how = 'closed';
    socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
    socket.on('error', (error: NodeJS.ErrnoException) => (how = error.code ?? 'error'));
    socket.on('close', () => resolve({ how, ms: Date.now() - started, bytes }));
  });
}

export const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** Bytes of a stream and their sha256, as one side saw them. */
export interface StreamDigest {
  bytes: number;
  sha: string;
}

/**
 * Writes `total` bytes to `socket` with backpressure and ends it: 1 MiB blocks of `seed`, each
 * with its index in its first 4 bytes (so a lost, doubled or swapped block changes the digest),
 * never all held at once. Resolves the digest of what was written.
 */
export function streamBlocks(socket: net.Socket, seed: Buffer, total: number): Promise<StreamDigest> {
  const hash = createHash('sha256');
  let written = 0;
  let index = 0;
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    const pump = (): void => {
      while (written < total) {
        const block = Buffer.from(seed.subarray(0, Math.min(seed.length, total - written)));
        if (block.length >= 4) block.writeUInt32BE(index, 0);
        index += 1;
        written += block.length;
        hash.update(block);
        if (!socket.write(block)) {
          socket.once('drain', pump);
          return;
        }
      }
      socket.end(() => resolve({ bytes: written, sha: hash.digest('hex') }));
    };
    pump();
  });
}

/** The digest of everything `socket` reads until its end, without keeping the bytes. */
export function digestUntilEnd(socket: net.Socket): Promise<StreamDigest> {
  const hash = createHash('sha256');
  let bytes = 0;
  return new Promise((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      hash.update(chunk);
    });
    socket.once('end', () => resolve({ bytes, sha: hash.digest('hex') }));
    socket.once('error', reject);
  });
}

/** GET `urlPath` on a loopback port: the body as text, or the connection error's code. */
export function httpGet(port: number, urlPath = '/'): Promise<string> {
  return new Promise((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(body));
      })
      .on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}
