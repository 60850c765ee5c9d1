// The memory one entry of the reader thread (a pty, or a pipe process) shares with the main thread,
// and the only code that touches its slots: the main thread counts the output it took, sets the
// pause flag and hands back ring space; the reader compares what it posted with what was taken,
// asks to be woken, and reads how much of its output ring is free again (output-ring.ts).
//
// One Int32Array of SHARED_SLOT_COUNT slots per entry:
//
//   index    0               1               2               3               4
//          +---------------+---------------+---------------+---------------+---------------+
//          | pty or stdout | pty or stdout | stderr        | stderr        | paused        |
//          | bytes taken   | wake request  | bytes taken   | wake request  | (all streams) |
//          +---------------+---------------+---------------+---------------+---------------+
//   writer   main: adds      reader: sets    main: adds      reader: sets    main
//                            main: clears                    main: clears
//
//   index    5                 6
//          +-----------------+-----------------+
//          | pty or stdout   | stderr          |
//          | ring released   | ring released   |
//          +-----------------+-----------------+
//   writer   main: stores      main: stores
//
// Bytes taken count modulo 2^32: the reader keeps its posted count with the same wrap-around, and
// only the difference of the two is ever used. A wake request is 1 while a reader stopped because
// it ran too far ahead and waits for a 'wake' message once the main thread took more. Ring released
// is the ring position (bytes the reader placed in its ring, modulo 2^32) up to which the main
// thread no longer holds any of the stream's ring memory: the reader may write there again.
import type { OutputStream } from '../../../shared/protocol';

const SharedSlot = {
  primaryTaken: 0,
  primaryWakeRequest: 1,
  stderrTaken: 2,
  stderrWakeRequest: 3,
  paused: 4,
  primaryReleased: 5,
  stderrReleased: 6,
} as const;
const SHARED_SLOT_COUNT = 7;

function takenSlot(stream: OutputStream): number {
  return stream === 'stderr' ? SharedSlot.stderrTaken : SharedSlot.primaryTaken;
}

function wakeRequestSlot(stream: OutputStream): number {
  return stream === 'stderr' ? SharedSlot.stderrWakeRequest : SharedSlot.primaryWakeRequest;
}

function releasedSlot(stream: OutputStream): number {
  return stream === 'stderr' ? SharedSlot.stderrReleased : SharedSlot.primaryReleased;
}

/** Allocates the shared memory of one entry, every slot 0 (not paused, nothing taken). */
export function allocateEntryMemory(): SharedArrayBuffer {
  return new SharedArrayBuffer(SHARED_SLOT_COUNT * Int32Array.BYTES_PER_ELEMENT);
}

/** The main thread's side of an entry's shared memory. */
export class TakerMemory {
  private readonly slots: Int32Array;

  constructor(buffer: SharedArrayBuffer) {
    this.slots = new Int32Array(buffer);
  }

  setPaused(paused: boolean): void {
    Atomics.store(this.slots, SharedSlot.paused, paused ? 1 : 0);
  }

  /** Counts `bytes` of `stream` as taken; true if the reader was waiting for that (it then needs a 'wake'). */
  took(stream: OutputStream, bytes: number): boolean {
    Atomics.add(this.slots, takenSlot(stream), bytes);
    return Atomics.compareExchange(this.slots, wakeRequestSlot(stream), 1, 0) === 1;
  }

  /** The main thread holds none of `stream`'s ring memory before ring position `end` any more. */
  release(stream: OutputStream, end: number): void {
    Atomics.store(this.slots, releasedSlot(stream), end);
  }
}

/** The reader thread's side of an entry's shared memory. */
export class ReaderMemory {
  private readonly slots: Int32Array;

  constructor(buffer: SharedArrayBuffer) {
    this.slots = new Int32Array(buffer);
  }

  paused(): boolean {
    return Atomics.load(this.slots, SharedSlot.paused) !== 0;
  }

  /** How far `posted` (bytes posted mod 2^32) runs ahead of what the main thread took of `stream`. */
  ahead(stream: OutputStream, posted: number): number {
    return (posted - Atomics.load(this.slots, takenSlot(stream))) | 0;
  }

  requestWake(stream: OutputStream): void {
    Atomics.store(this.slots, wakeRequestSlot(stream), 1);
  }

  withdrawWakeRequest(stream: OutputStream): void {
    Atomics.store(this.slots, wakeRequestSlot(stream), 0);
  }

  /** The ring position (mod 2^32) before which `stream`'s ring is free to write again. */
  released(stream: OutputStream): number {
    return Atomics.load(this.slots, releasedSlot(stream));
  }
}
