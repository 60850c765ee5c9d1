import { describe, expect, it } from 'vitest';
import { acquireFrame, releaseFrame } from '../../../../electron/client/link/frame-pool';
import { MAX_FS_BLOCK_BYTES } from '../../../../shared/protocol';

describe('frame pool', () => {
  it('reuses a written frame for the next one, once, and never one still being sent', () => {
    const first = acquireFrame(MAX_FS_BLOCK_BYTES + 100);
    expect(first.length).toBe(MAX_FS_BLOCK_BYTES + 100);
    const second = acquireFrame(10);
    expect(second.buffer).not.toBe(first.buffer);
    releaseFrame(first);
    releaseFrame(first); // reported written twice: still handed out only once
    const third = acquireFrame(500);
    expect(third.buffer).toBe(first.buffer);
    expect(acquireFrame(500).buffer).not.toBe(first.buffer);
    releaseFrame(second);
    releaseFrame(third);
  });

  it('leaves frames larger than a block, and foreign buffers, to the GC', () => {
    const huge = acquireFrame(MAX_FS_BLOCK_BYTES * 2);
    releaseFrame(huge);
    const foreign = new Uint8Array(100);
    releaseFrame(foreign);
    const next = acquireFrame(100);
    expect(next.buffer).not.toBe(huge.buffer);
    expect(next.buffer).not.toBe(foreign.buffer);
  });
});
