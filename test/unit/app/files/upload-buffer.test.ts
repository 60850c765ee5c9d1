import { describe, expect, it } from 'vitest';
import { UploadBuffer } from '../../../../electron/app/files/upload-buffer';

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

  it('accepts chunks up to exactly the bound without waiting, and a lone chunk over it', async () => {
    const buffer = new UploadBuffer(300, 100);
    await buffer.push(0, Buffer.alloc(50), false);
    await buffer.push(50, Buffer.alloc(50), false);
    const big = new UploadBuffer(300, 100);
    await big.push(0, Buffer.alloc(300), true);
    expect(big.receivedBytes).toBe(300);
    expect(big.complete).toBe(true);
  });

  it('counts received bytes and completes with the last chunk', async () => {
    const buffer = new UploadBuffer(5, 100);
    expect([buffer.receivedBytes, buffer.complete]).toEqual([0, false]);
    await buffer.push(0, Buffer.from('abc'), false);
    expect([buffer.receivedBytes, buffer.complete]).toEqual([3, false]);
    await buffer.push(3, Buffer.from('de'), true);
    expect([buffer.receivedBytes, buffer.complete]).toEqual([5, true]);
  });

  it('wakes a reader that is waiting for the first chunk', async () => {
    const buffer = new UploadBuffer(4, 100);
    const iterator = buffer[Symbol.asyncIterator]();
    // The generator runs up to its wait inside next(), so the reader is parked before the push.
    const first = iterator.next();
    await buffer.push(0, Buffer.from('ab'), false);
    expect(Buffer.from((await first).value as Uint8Array).toString()).toBe('ab');
    const second = iterator.next();
    await buffer.push(2, Buffer.from('cd'), true);
    expect(Buffer.from((await second).value as Uint8Array).toString()).toBe('cd');
    expect((await iterator.next()).done).toBe(true);
  });

  it('never yields an empty chunk, such as an empty last one', async () => {
    const buffer = new UploadBuffer(2, 100);
    await buffer.push(0, Buffer.from('ab'), false);
    await buffer.push(2, new Uint8Array(0), true);
    const chunks: number[] = [];
    for await (const chunk of buffer) chunks.push(chunk.byteLength);
    expect(chunks).toEqual([2]);
    const empty = new UploadBuffer(0, 100);
    await empty.push(0, new Uint8Array(0), true);
    for await (const chunk of empty) chunks.push(chunk.byteLength);
    expect(chunks).toEqual([2]);
  });

  it('refuses chunks after the last one, and after a failure', async () => {
    const done = new UploadBuffer(1, 100);
    await done.push(0, Buffer.alloc(1), true);
    await expect(done.push(1, Buffer.alloc(0), true)).rejects.toMatchObject({
      code: 'conflict',
      message: 'This upload already received its last chunk.',
    });
    const failed = new UploadBuffer(10, 100);
    failed.fail(new Error('cancelled'));
    failed.fail(new Error('second reason'));
    await expect(failed.push(0, Buffer.alloc(1), false)).rejects.toThrow('cancelled');
  });

  it('says what went wrong with the offsets and the total', async () => {
    const buffer = new UploadBuffer(10, 100);
    await expect(buffer.push(5, Buffer.alloc(1), false)).rejects.toMatchObject({
      message: 'Upload chunk at offset 5 arrived, but 0 was expected; send chunks in order.',
    });
    await expect(buffer.push(0, Buffer.alloc(4), true)).rejects.toMatchObject({
      message: 'The upload chunks do not add up to the announced 10 bytes.',
    });
  });
});
