// The output ring on both sides, with real shared memory: where batches go and how the ring wraps,
// that it refuses room the main thread still holds (the reader then uses buffers of its own) and
// offers it again once handed back, and that a StreamReader's ring batches carry the exact bytes.
import { describe, expect, it } from 'vitest';
import type { OutputStream } from '../../../../shared/protocol';
import { MAX_OUTPUT_CHUNK_BYTES } from '../../../../electron/server/limits';
import { OutputRing, RetiredRings, RingLease } from '../../../../electron/server/reader/output-ring';
import {
  allocateEntryMemory,
  ReaderMemory,
  TakerMemory,
} from '../../../../electron/server/reader/reader-shared-memory';
import { StreamReader } from '../../../../electron/server/reader/reader-stream';

const K = 1024;

function ringRig(size: number) {
  const shared = allocateEntryMemory();
  const memory = new ReaderMemory(shared);
  const taker = new TakerMemory(shared);
  const ring = new OutputRing(size, () => memory.released('stdout'));
  return { ring, taker, release: (end: number) => new RingLease(taker, 'stdout', end).release() };
}

/** Reserves, fills with `fill` and commits `bytes`: the batch's offset and end position. */
function place(ring: OutputRing, room: number, bytes: number, fill: number) {
  const view = ring.reserve(room);
  if (!view) return null;
  expect(view.length).toBe(room);
  view.fill(fill, 0, bytes);
  const offset = ring.commit(bytes);
  return { offset, end: ring.position };
}

describe('OutputRing', () => {
  it('places batches one after another, and skips a tail too short for the next one', () => {
    const { ring, release } = ringRig(10 * K);
    expect(place(ring, 4 * K, 3 * K, 1)).toEqual({ offset: 0, end: 3 * K });
    expect(place(ring, 4 * K, 4 * K, 2)).toEqual({ offset: 3 * K, end: 7 * K });
    release(7 * K);
    // 3 KiB are left at the end: a batch of up to 4 KiB starts over at 0, the tail counting as placed.
    expect(place(ring, 4 * K, 1 * K, 3)).toEqual({ offset: 0, end: 11 * K });
  });

  it('starts over at 0 when the last batch filled the ring exactly to its end', () => {
    const { ring, release } = ringRig(8 * K);
    expect(place(ring, 4 * K, 4 * K, 1)).toEqual({ offset: 0, end: 4 * K });
    expect(place(ring, 4 * K, 4 * K, 2)).toEqual({ offset: 4 * K, end: 8 * K });
    release(8 * K);
    // An empty tail is still a tail: the room must be whole, never a view past the end.
    expect(place(ring, 4 * K, 4 * K, 3)).toEqual({ offset: 0, end: 12 * K });
  });

  it('refuses room the main thread still holds, and offers it once that was handed back', () => {
    const { ring, release } = ringRig(8 * K);
    const first = place(ring, 4 * K, 4 * K, 1)!;
    const second = place(ring, 4 * K, 4 * K, 2)!;
    expect(ring.reserve(4 * K)).toBeNull();
    // Releasing the first batch frees exactly its room, at the start again.
    release(first.end);
    expect(ring.reserve(4 * K)).not.toBeNull();
    expect(ring.commit(2 * K)).toBe(0);
    // 2 KiB free at the end of the first batch's room, the second still held: no room for 4 KiB.
    expect(ring.reserve(4 * K)).toBeNull();
    expect(ring.reserve(2 * K)).not.toBeNull();
    // Releasing a later batch frees every earlier one with it.
    release(second.end);
    release(ring.position);
    expect(ring.reserve(4 * K)).not.toBeNull();
  });

  it('keeps its accounting across the 2^32 wrap of ring positions', () => {
    const { ring, release } = ringRig(8 * K);
    let end = 0;
    // Enough placements of 3 KiB (with skipped tails) to pass 2^32 is too many to run; start the
    // ring's counters near the wrap instead, through the same arithmetic the main thread uses.
    const placed = (2 ** 31 - 2 * K) | 0;
    (ring as unknown as { placed: number }).placed = placed;
    release(placed);
    for (let i = 0; i < 10; i++) {
      const batch = place(ring, 4 * K, 3 * K, i)!;
      expect(batch).not.toBeNull();
      end = batch.end;
      release(end);
    }
    expect(end).toBeLessThan(0); // Wrapped to a negative int32, still handed back correctly.
  });
});

interface RingPost {
  stream: OutputStream;
  offset: number;
  length: number;
  end: number;
}

/** A StreamReader with a ring of `ringBytes`, recording what it posts the way the main thread sees it. */
function readerRig(
  ringBytes: number,
  retired: RetiredRings | null = null,
  // Every read comes after a quiet spell, so each is posted at once.
  now: () => number = (() => {
    let at = 0;
    return () => (at += 10);
  })(),
) {
  const shared = allocateEntryMemory();
  const taker = new TakerMemory(shared);
  const own: Buffer[] = [];
  const inRing: RingPost[] = [];
  let ring: Buffer | null = null;
  let rings = 0;
  const reader = new StreamReader(
    'stdout',
    new ReaderMemory(shared),
    64 * 1024 * 1024,
    {
      batch: (_stream, data) => own.push(data),
      ring: (_stream, memory) => {
        rings++;
        ring = Buffer.from(memory);
      },
      ringBatch: (stream, offset, length, end) => inRing.push({ stream, offset, length, end }),
    },
    ringBytes,
    retired,
    now,
  );
  const bytesOf = (post: RingPost): Buffer =>
    Buffer.from(ring!.subarray(post.offset, post.offset + post.length));
  return { reader, taker, own, inRing, bytesOf, rings: () => rings, ring: () => ring };
}

function pattern(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 7 + seed) % 256;
  return bytes;
}

describe('StreamReader with an output ring', () => {
  it('starts its ring after a bulk batch, then posts every batch there with its exact bytes', () => {
    const rig = readerRig(4 * MAX_OUTPUT_CHUNK_BYTES);
    rig.reader.onData(Buffer.from('small'));
    expect(rig.rings()).toBe(0);
    const bulk = pattern(MAX_OUTPUT_CHUNK_BYTES, 1);
    rig.reader.onData(bulk);
    expect(rig.own.map((b) => b.length)).toEqual([5, MAX_OUTPUT_CHUNK_BYTES]);
    // From the next batch on, the ring; the main thread hands each back as soon as it took it.
    const sent: Buffer[] = [];
    const received: Buffer[] = [];
    for (let i = 0; i < 20; i++) {
      const read = pattern(20_000 + i * 1000, i);
      sent.push(read);
      rig.reader.onData(read);
      for (const post of rig.inRing.splice(0)) {
        received.push(rig.bytesOf(post));
        new RingLease(rig.taker, 'stdout', post.end).release();
      }
    }
    expect(rig.rings()).toBe(1);
    expect(rig.own).toHaveLength(2);
    expect(Buffer.concat(received).equals(Buffer.concat(sent))).toBe(true);
  });

  it('falls back to buffers of its own while the ring is held, and returns to the ring once released', () => {
    const rig = readerRig(2 * MAX_OUTPUT_CHUNK_BYTES);
    rig.reader.onData(pattern(MAX_OUTPUT_CHUNK_BYTES, 0)); // Turns the ring on.
    rig.reader.onData(pattern(MAX_OUTPUT_CHUNK_BYTES, 1));
    rig.reader.onData(pattern(MAX_OUTPUT_CHUNK_BYTES, 2));
    expect(rig.inRing).toHaveLength(2);
    const held = rig.inRing.map((post) => rig.bytesOf(post));
    // Nothing handed back: the next batch goes in a fresh buffer, and the ring's bytes stay as they were.
    const spilled = pattern(MAX_OUTPUT_CHUNK_BYTES, 3);
    rig.reader.onData(spilled);
    expect(rig.own).toHaveLength(2);
    expect(rig.own[1]!.equals(spilled)).toBe(true);
    expect(rig.inRing.every((post, i) => rig.bytesOf(post).equals(held[i]!))).toBe(true);
    // Handing back the first ring batch makes room for one more there.
    new RingLease(rig.taker, 'stdout', rig.inRing[0]!.end).release();
    const next = pattern(MAX_OUTPUT_CHUNK_BYTES, 4);
    rig.reader.onData(next);
    expect(rig.inRing).toHaveLength(3);
    expect(rig.inRing[2]!.offset).toBe(0);
    expect(rig.bytesOf(rig.inRing[2]!).equals(next)).toBe(true);
    expect(rig.bytesOf(rig.inRing[1]!).equals(held[1]!)).toBe(true);
  });

  it("gives an ended stream's ring to the next stream of its size, only once all of it was handed back", () => {
    const retired = new RetiredRings(4);
    const first = readerRig(2 * MAX_OUTPUT_CHUNK_BYTES, retired);
    first.reader.onData(pattern(MAX_OUTPUT_CHUNK_BYTES, 0)); // Turns the ring on.
    first.reader.onData(pattern(MAX_OUTPUT_CHUNK_BYTES, 1));
    first.reader.onData(pattern(1000, 2));
    first.reader.flush();
    const [held, last] = [first.inRing[0]!, first.inRing[1]!];
    first.reader.retire();
    // The main thread still holds the last batch: a new stream gets memory of its own.
    new RingLease(first.taker, 'stdout', held.end).release();
    const second = readerRig(2 * MAX_OUTPUT_CHUNK_BYTES, retired);
    second.reader.onData(pattern(MAX_OUTPUT_CHUNK_BYTES, 3));
    second.reader.onData(pattern(MAX_OUTPUT_CHUNK_BYTES, 4));
    expect(second.ring()!.buffer).not.toBe(first.ring()!.buffer);
    expect(first.bytesOf(last).equals(pattern(1000, 2))).toBe(true);
    // All handed back (the log does that when the process closes): the next stream writes there.
    new RingLease(first.taker, 'stdout', last.end).release();
    const third = readerRig(2 * MAX_OUTPUT_CHUNK_BYTES, retired);
    third.reader.onData(pattern(MAX_OUTPUT_CHUNK_BYTES, 5));
    const next = pattern(MAX_OUTPUT_CHUNK_BYTES, 6);
    third.reader.onData(next);
    expect(third.ring()!.buffer).toBe(first.ring()!.buffer);
    expect(third.inRing[0]!.offset).toBe(0);
    expect(third.bytesOf(third.inRing[0]!).equals(next)).toBe(true);
    // Taken once: a fourth stream does not share it.
    const fourth = readerRig(2 * MAX_OUTPUT_CHUNK_BYTES, retired);
    fourth.reader.onData(pattern(MAX_OUTPUT_CHUNK_BYTES, 7));
    fourth.reader.onData(pattern(MAX_OUTPUT_CHUNK_BYTES, 8));
    expect(fourth.ring()!.buffer).not.toBe(first.ring()!.buffer);
  });

  it('posts what a batch still gathers when its stream ends, before the ring may go to another stream', () => {
    // A busy stream: every read comes at once, so a part-full batch waits to be joined.
    const retired = new RetiredRings(4);
    const rig = readerRig(2 * MAX_OUTPUT_CHUNK_BYTES, retired, () => 0);
    rig.reader.onData(pattern(MAX_OUTPUT_CHUNK_BYTES, 0)); // Turns the ring on.
    const tail = pattern(12_288, 1);
    rig.reader.onData(tail);
    expect(rig.inRing).toHaveLength(0);
    rig.reader.retire();
    expect(rig.inRing).toHaveLength(1);
    expect(rig.bytesOf(rig.inRing[0]!).equals(tail)).toBe(true);
    // The coalescing timer found nothing left, and the ring is not handed out while that batch is held.
    expect(() => rig.reader.flush()).not.toThrow();
    expect(rig.inRing).toHaveLength(1);
    expect(retired.take(2 * MAX_OUTPUT_CHUNK_BYTES)).toBeNull();
    new RingLease(rig.taker, 'stdout', rig.inRing[0]!.end).release();
    expect(retired.take(2 * MAX_OUTPUT_CHUNK_BYTES)).toBe(rig.ring()!.buffer);
  });
});

describe('RetiredRings', () => {
  it('hands out only returned rings of the asked size, once each, and keeps at most its bound', () => {
    const retired = new RetiredRings(2);
    const rigs = [ringRig(4 * K), ringRig(4 * K), ringRig(8 * K)];
    const ends = rigs.map(({ ring }) => place(ring, K, 100, 1)!.end);
    for (const { ring } of rigs) retired.add(ring);
    // The first was pushed out by the third; none is handed back yet.
    expect(retired.take(4 * K)).toBeNull();
    rigs.forEach((rig, i) => rig.release(ends[i]!));
    expect(retired.take(4 * K)).toBe(rigs[1]!.ring.shared);
    expect(retired.take(4 * K)).toBeNull();
    expect(retired.take(8 * K)).toBe(rigs[2]!.ring.shared);
    expect(retired.take(8 * K)).toBeNull();
  });
});
