import { describe, expect, it } from 'vitest';
import {
  acquireBlockBuffer,
  acquireMessageBuffer,
  blockFrame,
  releaseMessage,
} from '../../../../electron/server/rpc/message-pool';
import { MAX_FS_BLOCK_BYTES, writeDataFrame } from '../../../../shared/protocol';
import { MESSAGE_POOL_BUFFER_BYTES } from '../../../../electron/server/limits';

describe('message pool', () => {
  it('hands out buffers of the asked size and reuses a released one', () => {
    const first = acquireMessageBuffer(1000);
    expect(first.length).toBe(1000);
    releaseMessage(first);
    const second = acquireMessageBuffer(2000);
    expect(second.length).toBe(2000);
    expect(second.buffer).toBe(first.buffer);
    // Not released: the next one must be different memory.
    const third = acquireMessageBuffer(10);
    expect(third.buffer).not.toBe(second.buffer);
    releaseMessage(second);
    releaseMessage(third);
  });

  it('leaves oversized messages, strings and foreign buffers alone', () => {
    const big = acquireMessageBuffer(MESSAGE_POOL_BUFFER_BYTES + 1);
    expect(big.length).toBe(MESSAGE_POOL_BUFFER_BYTES + 1);
    releaseMessage(big);
    releaseMessage('{"id":1}');
    const foreign = Buffer.alloc(MESSAGE_POOL_BUFFER_BYTES);
    releaseMessage(foreign);
    const next = acquireMessageBuffer(100);
    expect(next.buffer).not.toBe(big.buffer);
    expect(next.buffer).not.toBe(foreign.buffer);
    releaseMessage(next);
  });
});

describe('file block pool', () => {
  it('frames a read block in place and reuses its buffer once the frame is written', () => {
    const block = acquireBlockBuffer(MAX_FS_BLOCK_BYTES);
    block.fill(7);
    const short = block.subarray(0, 1000);
    const header = '{"id":3,"result":{"chunk":{"payloadRef":[0,1000]},"eof":true}}';
    const frame = blockFrame(header, short)!;
    // Byte for byte what the copying encoder builds.
    expect(Buffer.compare(frame, Buffer.from(writeDataFrame(header, [short])))).toBe(0);
    expect(frame.buffer).toBe(block.buffer);
    releaseMessage(frame);
    releaseMessage(frame); // a second release must not hand the buffer out twice
    const next = acquireBlockBuffer(10);
    expect(next.buffer).toBe(block.buffer);
    expect(acquireBlockBuffer(10).buffer).not.toBe(block.buffer);
  });

  it('copies instead where the header does not fit before the block, or the bytes are not a pooled block', () => {
    const block = acquireBlockBuffer(100);
    expect(blockFrame(`{"id":"${'x'.repeat(5000)}","result":{}}`, block)).toBeNull();
    expect(blockFrame('{"id":1}', Buffer.alloc(100))).toBeNull();
    // Not at the start of the block's room: the bytes before it are the block's own.
    expect(blockFrame('{"id":1}', block.subarray(10))).toBeNull();
  });
});
