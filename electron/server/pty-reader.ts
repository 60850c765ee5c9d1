// Reads the master side of every pty in one worker thread instead of on the main event loop.
// A pty buffers only ~12 KiB between the program and us, so while the main thread encodes and
// sends a chunk the program blocks; a dedicated reader keeps the terminal drained (the same shape
// as codex's reader thread). node-pty still spawns, writes, resizes and reports the exit.
import { EventEmitter } from 'node:events';
import tty from 'node:tty';
import { Worker } from 'node:worker_threads';
import * as pty from 'node-pty';
import { MAX_OUTPUT_CHUNK_BYTES, OUTPUT_COALESCE_DELAY_MS, OUTPUT_QUIET_MS } from './limits';

/** How often a forced close is retried while the terminal's output is paused. */
const PAUSED_CLOSE_RETRY_MS = 200;

// Runs as CommonJS inside the worker. Reads of a busy terminal (4 KiB each) are joined into
// batches of up to MAX bytes; a read after a quiet spell (a keystroke echo) is posted at once.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const tty = require('node:tty');
const fs = require('node:fs');
const MAX = ${MAX_OUTPUT_CHUNK_BYTES}, QUIET_MS = ${OUTPUT_QUIET_MS}, DELAY_MS = ${OUTPUT_COALESCE_DELAY_MS};
const readers = new Map();
function post(r) {
  if (r.timer) clearTimeout(r.timer);
  r.timer = null;
  if (r.bytes === 0) return;
  let data = r.parts[0];
  if (r.parts.length > 1) {
    data = Buffer.allocUnsafeSlow(r.bytes);
    let at = 0;
    for (const part of r.parts) at += part.copy(data, at);
  }
  r.parts = [];
  r.bytes = 0;
  parentPort.postMessage({ op: 'data', id: r.id, data });
}
function onData(r, chunk) {
  const now = performance.now();
  const quiet = now - r.last > QUIET_MS;
  r.last = now;
  if (r.bytes + chunk.length > MAX) post(r);
  r.parts.push(chunk);
  r.bytes += chunk.length;
  if (quiet || r.bytes >= MAX) post(r);
  else if (!r.timer) r.timer = setTimeout(() => post(r), DELAY_MS);
}
// Takes what the stream holds, then reads the terminal dry: on Linux the last output of a program
// that exited may never make the master readable, or arrive after the EIO that libuv reports as
// the end. Only while the stream is open: after an error or close the fd may already be reused.
function drain(r) {
  while (r.stream.read() !== null);
  const buffer = Buffer.allocUnsafe(MAX);
  for (;;) {
    let n;
    try {
      n = fs.readSync(r.fd, buffer, 0, buffer.length, null);
    } catch {
      return;
    }
    if (n <= 0) return;
    onData(r, Buffer.from(buffer.subarray(0, n)));
  }
}
function finish(r, fdOpen) {
  if (r.ended) return;
  r.ended = true;
  if (fdOpen) drain(r);
  post(r);
  readers.delete(r.id);
  r.stream.destroy();
  parentPort.postMessage({ op: 'end', id: r.id });
}
parentPort.on('message', (m) => {
  if (m.op === 'open') {
    const r = { id: m.id, fd: m.fd, parts: [], bytes: 0, last: 0, timer: null, ended: false, stream: null };
    r.stream = new tty.ReadStream(m.fd);
    r.stream.on('data', (chunk) => onData(r, chunk));
    r.stream.on('end', () => finish(r, true));
    r.stream.on('error', () => finish(r, false));
    r.stream.on('close', () => finish(r, false));
    readers.set(m.id, r);
    return;
  }
  const r = readers.get(m.id);
  if (!r) return;
  if (m.op === 'pause') r.stream.pause();
  else if (m.op === 'resume') r.stream.resume();
  else if (m.op === 'drain') finish(r, true);
});
`;

interface ReaderCallbacks {
  data(chunk: Buffer): void;
  end(): void;
}

type WorkerMessage = { op: 'data'; id: number; data: Uint8Array } | { op: 'end'; id: number };

/** The shared reader thread, started with the first pty and unreferenced while none is open. */
class PtyReaderThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly open = new Map<number, ReaderCallbacks>();

  add(fd: number, callbacks: ReaderCallbacks): number {
    const id = this.nextId++;
    this.open.set(id, callbacks);
    this.thread().ref();
    this.thread().postMessage({ op: 'open', id, fd });
    return id;
  }

  send(id: number, op: 'pause' | 'resume' | 'drain'): void {
    if (this.open.has(id)) this.worker?.postMessage({ op, id });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.on('message', (message: WorkerMessage) => {
      const callbacks = this.open.get(message.id);
      if (!callbacks) return;
      if (message.op === 'data') {
        callbacks.data(Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength));
        return;
      }
      this.open.delete(message.id);
      if (this.open.size === 0) worker.unref();
      callbacks.end();
    });
    // A dead reader ends every terminal rather than leaving its processes unreported.
    worker.on('exit', () => {
      this.worker = null;
      const ended = [...this.open.values()];
      this.open.clear();
      for (const callbacks of ended) callbacks.end();
    });
    this.worker = worker;
    return worker;
  }
}

const readerThread = new PtyReaderThread();

/**
 * Stands in for the tty.ReadStream node-pty would read the master with: it carries node-pty's
 * events, reads nothing itself, and reports 'close' once the reader thread reached the end.
 */
class DetachedTerminalSocket extends EventEmitter {
  readable = true;
  destroyed = false;
  onForcedClose: () => void = () => {};

  pause(): this {
    return this;
  }

  resume(): this {
    return this;
  }

  setEncoding(): this {
    return this;
  }

  end(): void {}

  /** node-pty calls this 200 ms after the exit when no close came by itself. */
  destroy(): this {
    if (!this.destroyed) this.onForcedClose();
    return this;
  }

  finish(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.readable = false;
    this.emit('close');
  }
}

export interface ReadPty {
  term: pty.IPty;
  setReading(reading: boolean): void;
}

/**
 * Spawns with node-pty and hands the master to the reader thread. `data` gets the output in
 * order; node-pty's onExit fires only after the last of it was delivered.
 */
export function spawnReadPty(
  file: string,
  args: string[],
  options: pty.IPtyForkOptions,
  data: (chunk: Buffer) => void,
): ReadPty {
  const original = tty.ReadStream;
  let term: pty.IPty;
  // node-pty builds its reader with `new tty.ReadStream(fd)` inside spawn; give it the stand-in.
  (tty as unknown as { ReadStream: unknown }).ReadStream = DetachedTerminalSocket;
  try {
    term = pty.spawn(file, args, { ...options, encoding: null });
  } finally {
    (tty as unknown as { ReadStream: unknown }).ReadStream = original;
  }
  const internals = term as unknown as { _socket: DetachedTerminalSocket; _fd: number };
  const socket = internals._socket;
  let reading = true;
  const id = readerThread.add(internals._fd, { data, end: () => socket.finish() });
  socket.onForcedClose = () => {
    if (reading) readerThread.send(id, 'drain');
    else setTimeout(() => socket.destroy(), PAUSED_CLOSE_RETRY_MS).unref();
  };
  return {
    term,
    setReading: (on) => {
      if (on === reading) return;
      reading = on;
      readerThread.send(id, on ? 'resume' : 'pause');
    },
  };
}
