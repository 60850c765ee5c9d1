// Reads process output in one worker thread instead of on the main event loop: pipe processes are
// spawned there, and the master side of every pty is read there. A pty buffers only ~12 KiB and a
// pipe 64 KiB between the program and the server, so while the main thread encoded and sent a
// chunk the program blocked; a dedicated reader keeps them drained (codex has reader threads too).
// node-pty still spawns ptys, writes to them, resizes them and reports their exit.
import { closeSync, constants as fsConstants, openSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type * as pty from 'node-pty';
import type { OutputStream } from '../../shared/protocol';
import { MAX_OUTPUT_CHUNK_BYTES, OUTPUT_COALESCE_DELAY_MS, OUTPUT_QUIET_MS } from './limits';
import { dropQueuedInput, spawnTerminal } from './node-pty-internals';

/** How often a forced pty close is retried while the terminal's output is paused. */
const PAUSED_CLOSE_RETRY_MS = 200;
/** Index in an entry's shared memory of the flag that pauses all of its streams. */
const PAUSED_SLOT = 4;

// Runs as CommonJS inside the worker. Reads of a busy stream are joined into batches of up to MAX
// bytes; a read after a quiet spell (a keystroke echo) is posted at once.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { spawn } = require('node:child_process');
const tty = require('node:tty');
const fs = require('node:fs');
const MAX = ${MAX_OUTPUT_CHUNK_BYTES}, QUIET_MS = ${OUTPUT_QUIET_MS}, DELAY_MS = ${OUTPUT_COALESCE_DELAY_MS};
const entries = new Map();
const PAUSED_SLOT = ${PAUSED_SLOT};

// Reads are copied into a batch buffer whose memory moves to the main thread without a copy. A
// small batch is copied out instead, so a retained keystroke echo does not pin a 64 KiB buffer.
// A stream also stops while more than m.readAhead posted bytes are not yet taken by the main
// thread, so a pause there (flow control, a congested client) takes effect within a bounded
// overshoot. The main thread counts what it took in shared memory (slot: bytes taken mod 2^32,
// slot + 1: set by a stopped reader that wants a 'wake' message). It also sets PAUSED_SLOT there
// before it posts 'pause': libuv may run up to 32 reads in one callback before this thread sees a
// message, so every read checks the flag and stops the stream at once.
function reader(m, name, slot) {
  return {
    id: m.id, name, slot, shared: new Int32Array(m.shared), readAhead: m.readAhead,
    stream: null, batch: null, bytes: 0, last: 0, timer: null, posted: 0,
  };
}
function paused(r) {
  return Atomics.load(r.shared, PAUSED_SLOT) !== 0;
}
function aheadTooFar(r) {
  return ((r.posted - Atomics.load(r.shared, r.slot)) | 0) > r.readAhead;
}
function updateReading(r) {
  if (!r.stream) return;
  if (paused(r)) return void r.stream.pause();
  if (aheadTooFar(r)) {
    Atomics.store(r.shared, r.slot + 1, 1);
    if (aheadTooFar(r)) return void r.stream.pause();
    Atomics.store(r.shared, r.slot + 1, 0);
  }
  r.stream.resume();
}
function post(r) {
  if (r.timer) clearTimeout(r.timer);
  r.timer = null;
  if (r.bytes === 0) return;
  let data;
  if (r.bytes >= MAX / 2) {
    data = r.batch.subarray(0, r.bytes);
    r.batch = null;
  } else {
    data = Buffer.allocUnsafeSlow(r.bytes);
    r.batch.copy(data, 0, 0, r.bytes);
  }
  r.posted = (r.posted + r.bytes) | 0;
  r.bytes = 0;
  parentPort.postMessage({ op: 'data', id: r.id, stream: r.name, data }, [data.buffer]);
  if (aheadTooFar(r)) updateReading(r);
}
function onData(r, chunk) {
  const now = performance.now();
  const quiet = now - r.last > QUIET_MS;
  r.last = now;
  let at = 0;
  while (at < chunk.length) {
    if (r.bytes === MAX) post(r);
    r.batch ??= Buffer.allocUnsafeSlow(MAX);
    const n = chunk.copy(r.batch, r.bytes, at);
    r.bytes += n;
    at += n;
  }
  if (quiet || r.bytes >= MAX) post(r);
  else if (!r.timer) r.timer = setTimeout(() => post(r), DELAY_MS);
  if (paused(r)) r.stream.pause();
}
// Terminal reads land in one reused buffer (onread), sparing an allocation per 4 KiB read.
const PTY_READ_BUFFER = Buffer.allocUnsafeSlow(MAX);

// Ptys. Takes what the stream holds, then reads the terminal dry: on Linux the last output of a
// program that exited may never make the master readable, or arrive after the EIO that libuv
// reports as the end. Only while the stream is open: after an error or close the fd may be reused.
function drainPty(e) {
  while (e.r.stream.read() !== null);
  const buffer = Buffer.allocUnsafe(MAX);
  for (;;) {
    let n;
    try {
      n = fs.readSync(e.fd, buffer, 0, buffer.length, null);
    } catch {
      return;
    }
    if (n <= 0) return;
    onData(e.r, buffer.subarray(0, n));
  }
}
function finishPty(e, fdOpen) {
  if (e.ended) return;
  e.ended = true;
  if (fdOpen) drainPty(e);
  post(e.r);
  entries.delete(e.id);
  e.r.stream.destroy();
  parentPort.postMessage({ op: 'end', id: e.id });
}
function openPty(m) {
  const r = reader(m, 'pty', 0);
  const stream = new tty.ReadStream(m.fd, {
    onread: { buffer: PTY_READ_BUFFER, callback: (n, buffer) => onData(r, buffer.subarray(0, n)) },
  });
  r.stream = stream;
  stream.resume(); // With onread nothing else starts the reading.
  const e = { kind: 'pty', id: m.id, fd: m.fd, ended: false, r };
  stream.on('end', () => finishPty(e, true));
  stream.on('error', () => finishPty(e, false));
  stream.on('close', () => finishPty(e, false));
  entries.set(m.id, e);
}

// Pipe processes, spawned here so their pipes belong to this thread.
function spawnPipes(m) {
  const child = spawn(m.file, m.args, m.options);
  if (child.pid === undefined) {
    child.once('error', (error) =>
      parentPort.postMessage({ op: 'spawnFailed', id: m.id, code: error.code, message: error.message }),
    );
    return;
  }
  child.on('error', () => {});
  child.stdin?.on('error', () => {});
  const readers = [reader(m, 'stdout', 0), reader(m, 'stderr', 2)];
  readers[0].stream = child.stdout;
  readers[1].stream = child.stderr;
  for (const r of readers) {
    r.stream.on('data', (chunk) => onData(r, chunk));
    r.stream.once('close', () => {
      post(r);
      parentPort.postMessage({ op: 'streamEnd', id: m.id });
    });
  }
  child.once('exit', (code, signal) => {
    for (const r of readers) post(r);
    parentPort.postMessage({ op: 'exit', id: m.id, code, signal });
  });
  child.once('close', () => entries.delete(m.id));
  entries.set(m.id, { kind: 'pipes', child, readers });
  parentPort.postMessage({ op: 'spawned', id: m.id, pid: child.pid });
}

parentPort.on('message', (m) => {
  if (m.op === 'pty') return openPty(m);
  if (m.op === 'spawn') return spawnPipes(m);
  const e = entries.get(m.id);
  if (!e) return;
  const readers = e.kind === 'pty' ? [e.r] : e.readers;
  if (m.op === 'pause' || m.op === 'resume' || m.op === 'wake') {
    for (const r of readers) updateReading(r);
  }
  else if (m.op === 'drain' && e.kind === 'pty') finishPty(e, true);
  else if (m.op === 'write' && e.kind === 'pipes') {
    const stdin = e.child.stdin;
    if (stdin && !stdin.destroyed) stdin.write(m.data);
  }
});
`;

type WorkerMessage =
  | { op: 'data'; id: number; stream: OutputStream; data: Uint8Array }
  | { op: 'end' | 'streamEnd'; id: number }
  | { op: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null }
  | { op: 'spawned'; id: number; pid: number }
  | { op: 'spawnFailed'; id: number; code: string | undefined; message: string };

/** What the main thread hears about one entry (a pty or a pipe process) of the reader thread. */
interface EntryEvents {
  data(stream: OutputStream, chunk: Buffer): void;
  /** A pty's master reached its end, or one output pipe closed. */
  streamEnd(): void;
  exit?(code: number | null, signal: NodeJS.Signals | null): void;
  spawned?(pid: number): void;
  spawnFailed?(code: string | undefined, message: string): void;
}

interface OpenEntry {
  events: EntryEvents;
  /** Output streams not ended yet. */
  streams: number;
  /** Whether the entry also waits for an exit report (pipe processes). */
  awaitingExit: boolean;
  /**
   * Per output stream (pty/stdout at 0, stderr at 2): bytes taken, and the reader's wake request;
   * at PAUSED_SLOT whether the entry's output is paused.
   */
  shared: Int32Array;
}

/** The shared reader thread, started with the first process and unreferenced while none is open. */
class ReaderThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly open = new Map<number, OpenEntry>();

  add(message: Record<string, unknown>, streams: number, readAhead: number, events: EntryEvents): number {
    const id = this.nextId++;
    const shared = new SharedArrayBuffer((PAUSED_SLOT + 1) * Int32Array.BYTES_PER_ELEMENT);
    this.open.set(id, {
      events,
      streams,
      awaitingExit: events.exit !== undefined,
      shared: new Int32Array(shared),
    });
    const worker = this.thread();
    worker.ref();
    worker.postMessage({ ...message, id, shared, readAhead });
    return id;
  }

  /** The flag first, so a reader in the middle of a run of reads stops at its next one. */
  setPaused(id: number, paused: boolean): void {
    const entry = this.open.get(id);
    if (!entry) return;
    Atomics.store(entry.shared, PAUSED_SLOT, paused ? 1 : 0);
    this.worker?.postMessage({ op: paused ? 'pause' : 'resume', id });
  }

  send(id: number, op: 'drain' | 'write', data?: Buffer): void {
    if (this.open.has(id)) this.worker?.postMessage({ op, id, data });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.on('message', (message: WorkerMessage) => this.receive(worker, message));
    // A crash in the reader must not take the server down; 'exit' then ends what it was reading,
    // and the next process starts a fresh reader.
    worker.on('error', (error) => {
      process.stderr.write(`tether exec-server error: the output reader thread failed: ${error.message}\n`);
    });
    // A dead reader ends every stream rather than leaving its processes unreported.
    worker.on('exit', () => {
      this.worker = null;
      const open = [...this.open.values()];
      this.open.clear();
      for (const entry of open) {
        for (let i = 0; i < entry.streams; i++) entry.events.streamEnd();
        entry.events.exit?.(null, 'SIGKILL');
      }
    });
    this.worker = worker;
    return worker;
  }

  private receive(worker: Worker, message: WorkerMessage): void {
    const entry = this.open.get(message.id);
    if (!entry) return;
    const { events } = entry;
    switch (message.op) {
      case 'data':
        events.data(
          message.stream,
          Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength),
        );
        this.took(worker, message.id, entry, message.stream === 'stderr' ? 2 : 0, message.data.byteLength);
        return;
      case 'spawned':
        events.spawned?.(message.pid);
        return;
      case 'spawnFailed':
        this.close(worker, message.id);
        events.spawnFailed?.(message.code, message.message);
        return;
      case 'exit':
        entry.awaitingExit = false;
        this.closeIfDone(worker, message.id, entry);
        events.exit?.(message.code, message.signal);
        return;
      case 'end':
      case 'streamEnd':
        entry.streams--;
        this.closeIfDone(worker, message.id, entry);
        events.streamEnd();
        return;
    }
  }

  /** Counts output as taken, and wakes a reader that stopped to wait for that. */
  private took(worker: Worker, id: number, entry: OpenEntry, slot: number, bytes: number): void {
    Atomics.add(entry.shared, slot, bytes);
    if (Atomics.compareExchange(entry.shared, slot + 1, 1, 0) === 1) worker.postMessage({ op: 'wake', id });
  }

  /** A pty is done once its master ended; a pipe process once both pipes closed and it exited. */
  private closeIfDone(worker: Worker, id: number, entry: OpenEntry): void {
    if (entry.streams === 0 && !entry.awaitingExit) this.close(worker, id);
  }

  private close(worker: Worker, id: number): void {
    this.open.delete(id);
    if (this.open.size === 0) worker.unref();
  }
}

const readerThread = new ReaderThread();

export interface ReadPty {
  term: pty.IPty;
  setReading(reading: boolean): void;
  /**
   * True once the process was reaped. From then on the master may be closed and its descriptor
   * number reused, so nothing should use it.
   */
  reaped(): boolean;
}

/**
 * Spawns with node-pty and hands the master to the reader thread. `data` gets the output in
 * order; node-pty's onExit fires only after the last of it was delivered.
 *
 * The server holds the terminal's slave side open until the process has exited. Otherwise, when a
 * program closes its stdio on the way out (GNU cat closes stdin at EOF and stdout in an atexit
 * handler), the master reads EIO, the master is closed at once, and the kernel hangs up the
 * terminal: the program, still a few microseconds from exiting, dies of SIGHUP (exit 129 instead
 * of 0). Held this way, the master reaches its end only after the exit was reaped.
 */
export function spawnReadPty(
  file: string,
  args: string[],
  options: pty.IPtyForkOptions,
  readAhead: number,
  data: (chunk: Buffer) => void,
): ReadPty {
  let slave: number | null = null;
  let exited = false;
  const releaseSlave = (): void => {
    if (slave === null) return;
    closeSync(slave);
    slave = null;
  };
  // Null only while spawnTerminal runs, or for good when it threw after forking (the reap of that
  // killed process still comes here).
  let spawnedTerm: pty.IPty | null = null;
  const { term, socket, masterFd, slavePath } = spawnTerminal(file, args, options, () => {
    exited = true;
    if (spawnedTerm) dropQueuedInput(spawnedTerm);
    releaseSlave();
  });
  spawnedTerm = term;
  if (!exited) {
    try {
      slave = openSync(slavePath, fsConstants.O_RDWR | fsConstants.O_NOCTTY);
    } catch {
      // The terminal is already gone; there is nothing left to hold open.
    }
  }
  let reading = true;
  const id = readerThread.add({ op: 'pty', fd: masterFd }, 1, readAhead, {
    data: (_stream, chunk) => data(chunk),
    streamEnd: () => {
      dropQueuedInput(term);
      socket.finish();
    },
  });
  socket.onForcedClose = () => {
    releaseSlave();
    if (reading) readerThread.send(id, 'drain');
    else setTimeout(() => socket.destroy(), PAUSED_CLOSE_RETRY_MS).unref();
  };
  return {
    term,
    setReading: (on) => {
      if (on === reading) return;
      reading = on;
      readerThread.setPaused(id, !on);
    },
    reaped: () => exited,
  };
}

export interface PipeSpawn {
  file: string;
  args: string[];
  argv0: string;
  cwd: string;
  env: Record<string, string>;
  pipeStdin: boolean;
  /** Output the reader may hand over before the main thread took it (see READER_READ_AHEAD_BYTES). */
  readAhead: number;
}

export interface PipeProcessEvents {
  data(stream: OutputStream, chunk: Buffer): void;
  /** Once per output pipe, when it closed. */
  streamEnd(): void;
  exit(code: number | null, signal: NodeJS.Signals | null): void;
}

export interface ReadPipes {
  pid: number;
  write(chunk: Buffer): void;
  setReading(reading: boolean): void;
}

/** A spawn error as the reader thread saw it (`code` is the errno name). */
export class PipeSpawnError extends Error {
  readonly code: string | undefined;

  constructor(code: string | undefined, message: string) {
    super(message);
    this.code = code;
  }
}

/** Spawns a pipe process in its own process group on the reader thread. */
export function spawnReadPipes(spec: PipeSpawn, events: PipeProcessEvents): Promise<ReadPipes> {
  return new Promise((resolve, reject) => {
    let reading = true;
    const id = readerThread.add(
      {
        op: 'spawn',
        file: spec.file,
        args: spec.args,
        options: {
          argv0: spec.argv0,
          cwd: spec.cwd,
          env: spec.env,
          detached: true,
          stdio: [spec.pipeStdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
        },
      },
      2,
      spec.readAhead,
      {
        ...events,
        spawned: (pid) =>
          resolve({
            pid,
            write: (chunk) => readerThread.send(id, 'write', chunk),
            setReading: (on) => {
              if (on === reading) return;
              reading = on;
              readerThread.setPaused(id, !on);
            },
          }),
        spawnFailed: (code, message) => reject(new PipeSpawnError(code, message)),
      },
    );
  });
}
