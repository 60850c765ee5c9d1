// Reads process output in one worker thread instead of on the main event loop: pipe processes are
// spawned there, and the master side of every pty is read there. A pty buffers only ~12 KiB and a
// pipe 64 KiB between the program and the server, so while the main thread encoded and sent a
// chunk the program blocked; a dedicated reader keeps them drained (codex has reader threads too).
// Pty input is written here, on the main thread (terminal-input.ts). node-pty still spawns ptys,
// resizes them and reports their exit. This is the
// main thread's side; the thread itself is reader-worker.ts.
import { closeSync, constants as fsConstants, openSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type * as pty from 'node-pty';
import type { OutputStream } from '../../../shared/protocol';
// The worker's code, bundled on its own by esbuild and inlined here as a string at build time
// (scripts/reader-worker-plugin.mjs; vitest.config.ts does the same for tests of the source).
// Inlined rather than shipped as a second file beside the bundle: the server must also run as one
// copied file (the SSH install), and a worker loaded by path breaks when the bundle moves alone.
import readerWorkerSource from 'virtual:tether-reader-worker';
import { spawnTerminal } from './node-pty-internals';
import { TerminalInput } from './terminal-input';
import type {
  FromReaderBatch,
  FromReaderMessage,
  OpenEntryMessage,
  OpenPtyMessage,
  SpawnPipesMessage,
  ToReaderMessage,
} from './reader-messages';
import { RingLease } from './output-ring';
import { allocateEntryMemory, TakerMemory } from './reader-shared-memory';

/** How often a forced pty close is retried while the terminal's output is paused. */
const PAUSED_CLOSE_RETRY_MS = 200;

/** What the main thread hears about one entry (a pty or a pipe process) of the reader thread. */
interface EntryEvents {
  /**
   * A batch of output. With a lease it lies in the stream's ring: hold it only until the lease is
   * released (in order), after which the reader writes there again.
   */
  data(stream: OutputStream, chunk: Buffer, lease: RingLease | null): void;
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
  memory: TakerMemory;
  /** Views of the streams' rings, once the reader made them. */
  rings: Partial<Record<OutputStream, Buffer>>;
}

/** How far the reader may read ahead of the main thread, and its streams' ring size (0: none). */
export interface ReadBounds {
  readAhead: number;
  ringBytes: number;
}

/** An opening message without what ReaderThread.add fills in. */
type AddedByThread = 'id' | 'shared' | 'readAhead' | 'ringBytes';
type EntryOpening = Omit<OpenPtyMessage, AddedByThread> | Omit<SpawnPipesMessage, AddedByThread>;

/** The shared reader thread, started with the first process and unreferenced while none is open. */
class ReaderThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly open = new Map<number, OpenEntry>();

  add(opening: EntryOpening, streams: number, bounds: ReadBounds, events: EntryEvents): number {
    const id = this.nextId++;
    const shared = allocateEntryMemory();
    this.open.set(id, {
      events,
      streams,
      awaitingExit: events.exit !== undefined,
      memory: new TakerMemory(shared),
      rings: {},
    });
    const worker = this.thread();
    worker.ref();
    const { readAhead, ringBytes } = bounds;
    this.post(worker, { ...opening, id, shared, readAhead, ringBytes } as OpenEntryMessage);
    return id;
  }

  /** The flag first, so a reader in the middle of a run of reads stops at its next one. */
  setPaused(id: number, paused: boolean): void {
    const entry = this.open.get(id);
    if (!entry) return;
    entry.memory.setPaused(paused);
    if (this.worker) this.post(this.worker, { op: paused ? 'pause' : 'resume', id });
  }

  drain(id: number): void {
    if (this.open.has(id) && this.worker) this.post(this.worker, { op: 'drain', id });
  }

  write(id: number, data: Buffer): void {
    if (this.open.has(id) && this.worker) this.post(this.worker, { op: 'write', id, data });
  }

  endStdin(id: number): void {
    if (this.open.has(id) && this.worker) this.post(this.worker, { op: 'endStdin', id });
  }

  private post(worker: Worker, message: ToReaderMessage): void {
    worker.postMessage(message);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(readerWorkerSource, { eval: true });
    worker.on('message', (batch: FromReaderBatch) => {
      for (const message of batch) this.receive(worker, message);
    });
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

  private receive(worker: Worker, message: FromReaderMessage): void {
    const entry = this.open.get(message.id);
    if (!entry) return;
    const { events } = entry;
    switch (message.op) {
      case 'data':
        events.data(
          message.stream,
          Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength),
          null,
        );
        this.took(worker, message.id, entry, message.stream, message.data.byteLength);
        return;
      case 'ring':
        entry.rings[message.stream] = Buffer.from(message.ring);
        return;
      case 'ringData': {
        const { stream, offset, length } = message;
        const chunk = entry.rings[stream]!.subarray(offset, offset + length);
        events.data(stream, chunk, new RingLease(entry.memory, stream, message.end));
        this.took(worker, message.id, entry, stream, length);
        return;
      }
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

  /** Counts the output as taken, and wakes a reader that stopped to wait for that. */
  private took(worker: Worker, id: number, entry: OpenEntry, stream: OutputStream, bytes: number): void {
    if (entry.memory.took(stream, bytes)) this.post(worker, { op: 'wake', id });
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
  /** For its pid, exit, resize and kill; input goes through `write`, not `term.write`. */
  term: pty.IPty;
  /** Input for the program, in order; dropped once the terminal closes. */
  write(chunk: Buffer): void;
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
  bounds: ReadBounds,
  data: (chunk: Buffer, lease: RingLease | null) => void,
): ReadPty {
  let slave: number | null = null;
  let exited = false;
  const releaseSlave = (): void => {
    if (slave === null) return;
    closeSync(slave);
    slave = null;
  };
  // Null only while spawnTerminal runs (a reap that early finds nothing to close yet).
  let input: TerminalInput | null = null;
  // The master reaches its end, and the reader thread closes it, only once the slave held here is
  // released: input stops first, so no write can meet a closed or reused descriptor.
  const endInput = (): void => {
    input?.close();
    releaseSlave();
  };
  const { term, socket, masterFd, slavePath } = spawnTerminal(file, args, options, () => {
    exited = true;
    endInput();
  });
  input = new TerminalInput(masterFd);
  if (exited) input.close();
  else {
    try {
      slave = openSync(slavePath, fsConstants.O_RDWR | fsConstants.O_NOCTTY);
    } catch {
      // The terminal is already gone; there is nothing left to hold open, nor anyone to read input.
      input.close();
    }
  }
  const terminalInput = input;
  let reading = true;
  const id = readerThread.add({ op: 'pty', fd: masterFd }, 1, bounds, {
    data: (_stream, chunk, lease) => data(chunk, lease),
    streamEnd: () => socket.finish(),
  });
  socket.onForcedClose = () => {
    endInput();
    if (reading) readerThread.drain(id);
    else setTimeout(() => socket.destroy(), PAUSED_CLOSE_RETRY_MS).unref();
  };
  return {
    term,
    write: (chunk) => terminalInput.write(chunk),
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
  /** Output the reader may hand over before the main thread took it, and its rings' size. */
  bounds: ReadBounds;
}

export interface PipeProcessEvents {
  /** As EntryEvents.data: a chunk with a lease lies in a ring, held until the lease is released. */
  data(stream: OutputStream, chunk: Buffer, lease: RingLease | null): void;
  /** Once per output pipe, when it closed. */
  streamEnd(): void;
  exit(code: number | null, signal: NodeJS.Signals | null): void;
}

export interface ReadPipes {
  pid: number;
  write(chunk: Buffer): void;
  /** Ends stdin once the writes before it are through. */
  endStdin(): void;
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
      spec.bounds,
      {
        ...events,
        spawned: (pid) =>
          resolve({
            pid,
            write: (chunk) => readerThread.write(id, chunk),
            endStdin: () => readerThread.endStdin(id),
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
