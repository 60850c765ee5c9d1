import { describe, expect, it } from 'vitest';
import { acquireMessageBuffer, releaseMessage } from '../../../../electron/server/rpc/message-pool';
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
