import { describe, expect, it } from 'vitest';
import { UploadBuffer } from '../../../electron/app/upload-buffer';

describe('UploadBuffer', () => {
  it('holds a chunk back until the consumer makes room (backpressure), and yields all bytes in order', async () => {
    const buffer = new UploadBuffer(300, 150);
    await buffer.push(0, Buffer.alloc(100, 1), false);
    let second = false;
    const pushing = buffer.push(100, Buffer.alloc(100, 2), false).then(() => (second = true));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(second).toBe(false);
    const seen: number[] = [];
    const reading = (async () => {
      for await (const chunk of buffer) seen.push(chunk[0]!, chunk.byteLength);
    })();
    await pushing;
    await buffer.push(200, Buffer.alloc(100, 3), true);
    await reading;
    expect(seen).toEqual([1, 100, 2, 100, 3, 100]);
  });

  it('rejects out-of-order offsets and totals that do not add up', async () => {
    const buffer = new UploadBuffer(10, 100);
    await expect(buffer.push(5, Buffer.alloc(1), false)).rejects.toMatchObject({ code: 'invalidInput' });
    await expect(buffer.push(0, Buffer.alloc(4), true)).rejects.toMatchObject({ code: 'invalidInput' });
    await expect(buffer.push(0, Buffer.alloc(11), false)).rejects.toMatchObject({ code: 'invalidInput' });
  });

  it('fails a waiting writer and the reader when the upload is failed', async () => {
    const buffer = new UploadBuffer(300, 50);
    await buffer.push(0, Buffer.alloc(100), false);
    const waiting = buffer.push(100, Buffer.alloc(100), false);
    buffer.fail(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    const iterator = buffer[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toThrow('cancelled');
  });
});
