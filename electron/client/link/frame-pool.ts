// Reusable buffers for the data frames an upload sends: each 1 MiB block is copied into a frame
// (the WebSocket may mask a frame's bytes in place, so the block itself cannot be one), and a
// fresh 1 MiB buffer per block made V8 collect its whole heap every few dozen MiB, since it counts
// their bytes as external memory. A frame returns here once its transport has written it out.
import { MAX_FS_BLOCK_BYTES } from '../../../shared/protocol';

/** A block and the JSON header of its message. */
const FRAME_SLAB_BYTES = MAX_FS_BLOCK_BYTES + 4096;
/** One full window of blocks (FS_WINDOW_MAX_BYTES) across this process's uploads. */
const MAX_FREE = 16;
/** Unused this long, the pool is let go: an app that uploaded once keeps no window of buffers. */
const IDLE_MS = 10_000;

const free: ArrayBuffer[] = [];
const owned = new WeakSet<ArrayBufferLike>();
let trim: NodeJS.Timeout | null = null;

/** A buffer of exactly `bytes` bytes, pooled when a frame slab holds it. */
export function acquireFrame(bytes: number): Uint8Array {
  if (bytes > FRAME_SLAB_BYTES) return new Uint8Array(bytes);
  let slab = free.pop();
  if (slab === undefined) {
    slab = new ArrayBuffer(FRAME_SLAB_BYTES);
    owned.add(slab);
  }
  return new Uint8Array(slab, 0, bytes);
}

/** Hands a frame back once its transport no longer needs its bytes; others are left to the GC. */
export function releaseFrame(frame: Uint8Array): void {
  // A frame reported written twice must not be handed out twice.
  const slab = frame.buffer as ArrayBuffer;
  if (!owned.has(slab) || free.length >= MAX_FREE || free.includes(slab)) return;
  free.push(slab);
  if (trim) trim.refresh();
  else {
    trim = setTimeout(() => {
      trim = null;
      free.length = 0;
    }, IDLE_MS);
    trim.unref();
  }
}
