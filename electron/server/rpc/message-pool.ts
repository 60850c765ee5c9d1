// Reusable buffers for outbound messages. A busy stream produces hundreds of ~90 KB
// `process/output` messages per second, and a download hundreds of 1 MiB file blocks; fresh
// buffers for each cost page faults and, for the blocks, a full garbage collection every few
// dozen MiB (V8 counts their bytes as external memory). So a buffer returns here once the socket
// has written it.
import { dataFrameAround, MAX_FS_BLOCK_BYTES } from '../../../shared/protocol';
import {
  BLOCK_POOL_IDLE_MS,
  BLOCK_POOL_MAX_FREE,
  MESSAGE_POOL_BUFFER_BYTES,
  MESSAGE_POOL_MAX_FREE,
} from '../limits';

const free: Buffer[] = [];
const owned = new WeakSet<ArrayBufferLike>();

/** Room before a block's bytes for its data frame's prefix and JSON header (id and all). */
const BLOCK_HEADROOM_BYTES = 4096;
const freeBlocks: ArrayBuffer[] = [];
const blockSlabs = new WeakSet<ArrayBufferLike>();
let blockTrim: NodeJS.Timeout | null = null;

/** A buffer of exactly `bytes` bytes, pooled when it fits a pool buffer. */
export function acquireMessageBuffer(bytes: number): Buffer {
  if (bytes > MESSAGE_POOL_BUFFER_BYTES) return Buffer.allocUnsafe(bytes);
  let slab = free.pop();
  if (slab === undefined) {
    slab = Buffer.allocUnsafeSlow(MESSAGE_POOL_BUFFER_BYTES);
    owned.add(slab.buffer);
  }
  return slab.subarray(0, bytes);
}

/**
 * Room for one file block read (up to MAX_FS_BLOCK_BYTES), with space before it so that its
 * `fs/readBlock` result can be framed around it in place (blockFrame). It returns to the pool
 * once the frame is written out; a block that leaves as base64 instead is left to the GC.
 */
export function acquireBlockBuffer(bytes: number): Buffer {
  if (bytes > MAX_FS_BLOCK_BYTES) return Buffer.allocUnsafe(bytes);
  let slab = freeBlocks.pop();
  if (slab === undefined) {
    slab = new ArrayBuffer(BLOCK_HEADROOM_BYTES + MAX_FS_BLOCK_BYTES);
    blockSlabs.add(slab);
  }
  return Buffer.from(slab, BLOCK_HEADROOM_BYTES, bytes);
}

/** A data frame of `headerText` and a block from acquireBlockBuffer, built around it; else null. */
export function blockFrame(headerText: string, payload: Uint8Array): Buffer | null {
  if (!blockSlabs.has(payload.buffer) || payload.byteOffset !== BLOCK_HEADROOM_BYTES) return null;
  const frame = dataFrameAround(headerText, payload, BLOCK_HEADROOM_BYTES);
  return frame ? Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength) : null;
}

/** Hands a message back once nothing refers to its bytes any more (written out, or dropped). */
export function releaseMessage(message: string | Buffer): void {
  if (typeof message === 'string') return;
  if (blockSlabs.has(message.buffer)) {
    releaseBlock(message.buffer as ArrayBuffer);
    return;
  }
  if (!owned.has(message.buffer)) return;
  if (free.length < MESSAGE_POOL_MAX_FREE)
    free.push(Buffer.from(message.buffer, 0, MESSAGE_POOL_BUFFER_BYTES));
}

function releaseBlock(slab: ArrayBuffer): void {
  if (freeBlocks.length < BLOCK_POOL_MAX_FREE && !freeBlocks.includes(slab)) freeBlocks.push(slab);
  // An idle server does not keep a download's worth of blocks.
  if (blockTrim) blockTrim.refresh();
  else {
    blockTrim = setTimeout(() => {
      blockTrim = null;
      freeBlocks.length = 0;
    }, BLOCK_POOL_IDLE_MS);
    blockTrim.unref();
  }
}
