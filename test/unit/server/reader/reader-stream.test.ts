// The reader thread's per-stream logic on this thread: batching and posting under the coalescing
// policy, and the pause and read-ahead decisions against real shared memory, with a real stream.
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { OutputStream } from '../../../../shared/protocol';
import { MAX_OUTPUT_CHUNK_BYTES } from '../../../../electron/server/limits';
import {
  allocateEntryMemory,
  ReaderMemory,
  TakerMemory,
} from '../../../../electron/server/reader/reader-shared-memory';
import { StreamReader } from '../../../../electron/server/reader/reader-stream';

interface Posted {
  stream: OutputStream;
  data: Buffer;
}

/** A reader on a real PassThrough, with the main thread's side of its memory and a clock the test moves. */
function rig(options: { stream?: OutputStream; readAhead?: number; ringBytes?: number } = {}) {
  const shared = allocateEntryMemory();
  const posted: Posted[] = [];
  let now = 1000;
  const reader = new StreamReader(
    options.stream ?? 'pty',
    new ReaderMemory(shared),
    options.readAhead ?? 1024 * 1024,
    { batch: (stream, data) => posted.push({ stream, data }), ring: () => {}, ringBatch: () => {} },
    options.ringBytes ?? 0,
    null,
    () => now,
  );
  const source = new PassThrough();
  reader.attach(source);
  source.resume();
  return {
    reader,
    source,
    posted,
    taker: new TakerMemory(shared),
    shared,
    advance: (ms: number) => void (now += ms),
  };
}

describe('StreamReader', () => {
  it('posts a read after a quiet spell at once, copied out into a buffer of its own size', () => {
    const { reader, posted } = rig();
    reader.onData(Buffer.from('echo'));
    expect(posted).toHaveLength(1);
    expect(posted[0]!.stream).toBe('pty');
    expect(posted[0]!.data.toString()).toBe('echo');
    // Transferring it must not take a whole batch buffer along.
    expect(posted[0]!.data.buffer.byteLength).toBe(4);
  });

  it('joins the reads of a busy stream and posts them together once the delay passed', async () => {
    const { reader, posted, advance } = rig();
    reader.onData(Buffer.from('a'));
    advance(0.1);
    reader.onData(Buffer.from('b'));
    advance(0.1);
    reader.onData(Buffer.from('c'));
    expect(posted.map((p) => p.data.toString())).toEqual(['a']);
    await vi.waitFor(() => expect(posted).toHaveLength(2), { timeout: 5000 });
    expect(posted[1]!.data.toString()).toBe('bc');
  });

  it('posts full batches at once, each moving with its own buffer, and splits a larger read', () => {
    const { reader, posted } = rig();
    const input = Buffer.alloc(2 * MAX_OUTPUT_CHUNK_BYTES + 1000);
    for (let i = 0; i < input.length; i++) input[i] = i % 251;
    reader.onData(input);
    expect(posted.map((p) => p.data.length)).toEqual([MAX_OUTPUT_CHUNK_BYTES, MAX_OUTPUT_CHUNK_BYTES, 1000]);
    expect(posted[0]!.data.buffer).not.toBe(posted[1]!.data.buffer);
    expect(Buffer.concat(posted.map((p) => p.data)).equals(input)).toBe(true);
  });

  it('stops the stream on the read that finds the paused flag, and resumes once it is cleared', () => {
    const { reader, source, taker } = rig();
    taker.setPaused(true);
    reader.onData(Buffer.from('x'));
    expect(source.isPaused()).toBe(true);
    reader.updateReading();
    expect(source.isPaused()).toBe(true);
    taker.setPaused(false);
    reader.updateReading();
    expect(source.isPaused()).toBe(false);
  });

  it('stops beyond the read-ahead with a wake request, and reads again once enough was taken', () => {
    const { reader, source, taker, advance } = rig({ readAhead: 10 });
    reader.onData(Buffer.alloc(10));
    expect(source.isPaused()).toBe(false);
    expect(taker.took('pty', 0)).toBe(false);
    advance(1);
    reader.onData(Buffer.alloc(10));
    expect(source.isPaused()).toBe(true);
    // Taking 5 of 20 leaves 15 ahead: the reader, woken, asks again and stays stopped.
    expect(taker.took('pty', 5)).toBe(true);
    reader.updateReading();
    expect(source.isPaused()).toBe(true);
    expect(taker.took('pty', 5)).toBe(true);
    reader.updateReading();
    expect(source.isPaused()).toBe(false);
    // Back within bounds, it reads on without leaving a request behind.
    expect(taker.took('pty', 0)).toBe(false);
  });

  it('counts stderr apart from stdout in the memory both readers of a pipe process share', () => {
    const out = rig({ stream: 'stdout', readAhead: 10 });
    const ignore = { batch: () => {}, ring: () => {}, ringBatch: () => {} };
    const err = new StreamReader('stderr', new ReaderMemory(out.shared), 10, ignore, 0);
    const errSource = new PassThrough();
    err.attach(errSource);
    errSource.resume();
    err.onData(Buffer.alloc(20));
    expect(errSource.isPaused()).toBe(true);
    expect(out.taker.took('stdout', 20)).toBe(false);
    err.updateReading();
    expect(errSource.isPaused()).toBe(true);
    expect(out.taker.took('stderr', 20)).toBe(true);
    err.updateReading();
    expect(errSource.isPaused()).toBe(false);
  });

  it('compares posted and taken counts modulo 2^32', () => {
    const shared = allocateEntryMemory();
    const taker = new TakerMemory(shared);
    const memory = new ReaderMemory(shared);
    // The main thread took 2^31 - 1 bytes; the reader posted 8 more, and its count wrapped.
    taker.took('pty', 2 ** 31 - 1);
    expect(memory.ahead('pty', (2 ** 31 - 1 + 8) | 0)).toBe(8);
    // Then the main thread's count wraps too.
    taker.took('pty', 8);
    expect(memory.ahead('pty', (2 ** 31 - 1 + 8) | 0)).toBe(0);
  });
});
