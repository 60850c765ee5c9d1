// The reader thread's entry (bundled on its own, see reader-thread.ts): it spawns pipe processes,
// so their pipes belong to this thread, reads every pty master handed over by the main thread, and
// posts their output in batches (reader-stream.ts). Nothing here runs on the main thread.
import { spawn, type ChildProcess } from 'node:child_process';
import { readSync } from 'node:fs';
import type { ConnectOpts, SocketConstructorOpts } from 'node:net';
import tty from 'node:tty';
import { parentPort, type MessagePort } from 'node:worker_threads';
import type { OutputStream } from '../../../shared/protocol';
import { MAX_OUTPUT_CHUNK_BYTES, RETIRED_RINGS } from '../limits';
import type {
  FromReaderBatch,
  FromReaderMessage,
  OpenPtyMessage,
  SpawnPipesMessage,
  ToReaderMessage,
} from './reader-messages';
import { ReaderMemory } from './reader-shared-memory';
import { readIntoBuffer } from './pipe-onread';
import { RetiredRings } from './output-ring';
import { StreamReader, type BatchSink } from './reader-stream';

if (!parentPort) throw new Error('reader-worker runs only as the reader thread of the exec-server');
const port: MessagePort = parentPort;

interface PtyEntry {
  kind: 'pty';
  fd: number;
  stream: tty.ReadStream;
  reader: StreamReader;
  ended: boolean;
}

interface PipesEntry {
  kind: 'pipes';
  child: ChildProcess;
  readers: StreamReader[];
}

const entries = new Map<number, PtyEntry | PipesEntry>();

/** A few ended streams' rings, for the next bulk streams (output-ring.ts says why). */
const retiredRings = new RetiredRings(RETIRED_RINGS);

// Messages wait in an outbox until the reads of this turn of the event loop are done, then leave
// in one postMessage. Under bulk output libuv runs several pipe reads per callback: 256 MiB of
// output took about 1,300 postMessages instead of 4,096 (and as many fewer wake-ups of the main
// thread). One outbox for every entry, so the main thread sees all messages in posting order.
let outbox: FromReaderMessage[] = [];
let outboxTransfers: ArrayBuffer[] = [];

function post(message: FromReaderMessage, transfer: ArrayBuffer[] = []): void {
  if (outbox.length === 0) setImmediate(sendOutbox);
  outbox.push(message);
  outboxTransfers.push(...transfer);
}

function sendOutbox(): void {
  const messages: FromReaderBatch = outbox;
  const transfers = outboxTransfers;
  outbox = [];
  outboxTransfers = [];
  port.postMessage(messages, transfers);
}

function streamReader(
  id: number,
  stream: OutputStream,
  opening: OpenPtyMessage | SpawnPipesMessage,
): StreamReader {
  const sink: BatchSink = {
    batch: (name, data) => post({ op: 'data', id, stream: name, data }, [data.buffer as ArrayBuffer]),
    ring: (name, ring) => post({ op: 'ring', id, stream: name, ring }),
    ringBatch: (name, offset, length, end) => post({ op: 'ringData', id, stream: name, offset, length, end }),
  };
  return new StreamReader(
    stream,
    new ReaderMemory(opening.shared),
    opening.readAhead,
    sink,
    opening.ringBytes,
    retiredRings,
  );
}

// Terminal and pipe reads land in one reused buffer (onread), sparing an allocation, and the page
// faults of fresh memory, per read: each read is copied into its batch before the next one.
const READ_BUFFER = Buffer.allocUnsafeSlow(MAX_OUTPUT_CHUNK_BYTES);

// Takes what the stream holds, then reads the terminal dry: on Linux the last output of a program
// that exited may never make the master readable, or arrive after the EIO that libuv reports as
// the end. Only while the stream is open: after an error or close the fd may be reused.
function drainPty(entry: PtyEntry): void {
  while (entry.stream.read() !== null);
  const buffer = Buffer.allocUnsafe(MAX_OUTPUT_CHUNK_BYTES);
  for (;;) {
    let n: number;
    try {
      n = readSync(entry.fd, buffer, 0, buffer.length, null);
    } catch {
      return;
    }
    if (n <= 0) return;
    entry.reader.onData(buffer.subarray(0, n));
  }
}

function finishPty(id: number, entry: PtyEntry, fdOpen: boolean): void {
  if (entry.ended) return;
  entry.ended = true;
  if (fdOpen) drainPty(entry);
  entry.reader.retire();
  entries.delete(id);
  entry.stream.destroy();
  post({ op: 'end', id });
}

function openPty(message: OpenPtyMessage): void {
  const reader = streamReader(message.id, 'pty', message);
  // A socket takes `onread` as net.connect does (the typings list it only there).
  const options: SocketConstructorOpts & Pick<ConnectOpts, 'onread'> = {
    onread: {
      buffer: READ_BUFFER,
      callback: (n) => {
        reader.onData(READ_BUFFER.subarray(0, n));
        return true;
      },
    },
  };
  const stream = new tty.ReadStream(message.fd, options);
  reader.attach(stream);
  stream.resume(); // With onread nothing else starts the reading.
  const entry: PtyEntry = { kind: 'pty', fd: message.fd, stream, reader, ended: false };
  stream.on('end', () => finishPty(message.id, entry, true));
  stream.on('error', () => finishPty(message.id, entry, false));
  stream.on('close', () => finishPty(message.id, entry, false));
  entries.set(message.id, entry);
}

function spawnPipes(message: SpawnPipesMessage): void {
  const { id } = message;
  const child = spawn(message.file, message.args, message.options);
  if (child.pid === undefined) {
    child.once('error', (error: NodeJS.ErrnoException) =>
      post({ op: 'spawnFailed', id, code: error.code, message: error.message }),
    );
    return;
  }
  child.on('error', () => {});
  child.stdin?.on('error', () => {});
  const outputs = [
    { reader: streamReader(id, 'stdout', message), source: child.stdout },
    { reader: streamReader(id, 'stderr', message), source: child.stderr },
  ];
  for (const { reader, source } of outputs) {
    if (!source) continue;
    reader.attach(source);
    if (!readIntoBuffer(source, READ_BUFFER, (n) => reader.onData(READ_BUFFER.subarray(0, n)))) {
      source.on('data', (chunk: Buffer) => reader.onData(chunk));
    }
    // The child's 'close' comes out of the last stream's 'close', before this listener runs: each
    // stream gives up its ring here, once it cannot read any more.
    source.once('close', () => {
      reader.retire();
      post({ op: 'streamEnd', id });
    });
  }
  const readers = outputs.map((output) => output.reader);
  child.once('exit', (code, signal) => {
    for (const reader of readers) reader.flush();
    post({ op: 'exit', id, code, signal });
  });
  child.once('close', () => entries.delete(id));
  entries.set(id, { kind: 'pipes', child, readers });
  post({ op: 'spawned', id, pid: child.pid });
}

port.on('message', (message: ToReaderMessage) => {
  if (message.op === 'pty') return openPty(message);
  if (message.op === 'spawn') return spawnPipes(message);
  const entry = entries.get(message.id);
  if (!entry) return;
  switch (message.op) {
    case 'pause':
    case 'resume':
    case 'wake':
      for (const reader of entry.kind === 'pty' ? [entry.reader] : entry.readers) reader.updateReading();
      return;
    case 'drain':
      if (entry.kind === 'pty') finishPty(message.id, entry, true);
      return;
    case 'write':
      if (entry.kind === 'pipes') {
        const stdin = entry.child.stdin;
        if (stdin && !stdin.destroyed) stdin.write(message.data);
      }
      return;
    case 'endStdin':
      if (entry.kind === 'pipes') entry.child.stdin?.end();
      return;
  }
});
