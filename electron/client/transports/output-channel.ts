// The channel a stdio server's stdout comes back on: a connected pair of unix sockets instead of
// a pipe, because Node reads a socket it connected itself into memory the caller lends (net's
// `onread`), where a child's stdout pipe gets a fresh buffer for every read. Under bulk output
// those buffers (podman and ssh hand output over in 8–32 KiB writes) were half of the client's
// allocations, and so of the collections that external memory forces. The pair is made by
// listening in a private directory (0700, ours) for the one connection we make, then removing it:
// nothing else can reach it, and it is gone before the child starts.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface OutputChannel {
  /** The end to hand to the child as its stdout (spawn's stdio[1]); close ours once spawned. */
  childEnd: net.Socket;
  /** The end read here: every read lands in what `buffer()` returned just before it. */
  reader: net.Socket;
}

export interface OutputReads {
  /** Where the next read goes; called before every read. */
  buffer(): Uint8Array;
  /** `bytes` bytes were read into `into` (the buffer given for this read). */
  read(bytes: number, into: Uint8Array): void;
}

/** The pair, or null where this machine cannot make one (then the caller uses a pipe). */
export async function openOutputChannel(reads: OutputReads): Promise<OutputChannel | null> {
  let dir: string;
  try {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tether-out-'));
  } catch {
    return null;
  }
  const server = net.createServer({ pauseOnConnect: true });
  try {
    const socketPath = path.join(dir, 'out.sock');
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
    const reader = net.connect({
      path: socketPath,
      onread: {
        buffer: () => reads.buffer(),
        callback: (bytes, into) => {
          reads.read(bytes, into);
          return true;
        },
      },
    });
    const connected = new Promise<void>((resolve, reject) => {
      reader.once('connect', resolve);
      reader.once('error', reject);
    });
    const [childEnd] = await Promise.all([accepted, connected]);
    // Only the child writes: data the child's end would read never comes.
    childEnd.on('error', () => undefined);
    return { childEnd, reader };
  } catch {
    return null;
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
