// Reusable buffers for outbound `process/output` messages. A busy stream produces hundreds of
// ~90 KB messages per second; fresh buffers for each cost page faults and GC work that showed up
// as the largest server cost in profiles, so a buffer returns here once the socket has written it.
import { MESSAGE_POOL_BUFFER_BYTES, MESSAGE_POOL_MAX_FREE } from '../limits';

const free: Buffer[] = [];
const owned = new WeakSet<ArrayBufferLike>();

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

/** Hands a message back once nothing refers to its bytes any more (written out, or dropped). */
export function releaseMessage(message: string | Buffer): void {
  if (typeof message === 'string' || !owned.has(message.buffer)) return;
  if (free.length < MESSAGE_POOL_MAX_FREE)
    free.push(Buffer.from(message.buffer, 0, MESSAGE_POOL_BUFFER_BYTES));
}
