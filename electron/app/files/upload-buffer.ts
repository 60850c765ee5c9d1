// The bounded buffer between the renderer sending upload chunks and the server writing them:
// a chunk is accepted only once it fits within the bound, which is the backpressure the renderer
// feels (its uploadChunk call resolves later). Consumed as an async iterable by writeStream.
import { AppError } from '../app-error';

export class UploadBuffer implements AsyncIterable<Uint8Array> {
  private readonly chunks: Uint8Array[] = [];
  private buffered = 0;
  private received = 0;
  private ended = false;
  private failure: Error | null = null;
  private wakeReader: (() => void) | null = null;
  private wakeWriters: Array<() => void> = [];

  constructor(
    readonly totalBytes: number,
    private readonly limitBytes: number,
  ) {}

  get receivedBytes(): number {
    return this.received;
  }

  get complete(): boolean {
    return this.ended;
  }

  /** Accepts the next chunk in order; resolves once it is buffered within the bound. */
  async push(offset: number, data: Uint8Array, last: boolean): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.ended) throw new AppError('conflict', 'This upload already received its last chunk.');
    if (offset !== this.received) {
      throw new AppError(
        'invalidInput',
        `Upload chunk at offset ${offset} arrived, but ${this.received} was expected; send chunks in order.`,
      );
    }
    if (
      this.received + data.byteLength > this.totalBytes ||
      (last && this.received + data.byteLength !== this.totalBytes)
    ) {
      throw new AppError(
        'invalidInput',
        `The upload chunks do not add up to the announced ${this.totalBytes} bytes.`,
      );
    }
    this.received += data.byteLength;
    while (this.buffered > 0 && this.buffered + data.byteLength > this.limitBytes) {
      await new Promise<void>((resolve) => this.wakeWriters.push(resolve));
      if (this.failure) throw this.failure;
    }
    if (data.byteLength > 0) this.chunks.push(data);
    this.buffered += data.byteLength;
    if (last) this.ended = true;
    this.wake();
  }

  fail(error: Error): void {
    this.failure ??= error;
    this.wake();
    for (const resolve of this.wakeWriters.splice(0)) resolve();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (;;) {
      if (this.failure) throw this.failure;
      const chunk = this.chunks.shift();
      if (chunk) {
        this.buffered -= chunk.byteLength;
        for (const resolve of this.wakeWriters.splice(0)) resolve();
        yield chunk;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wakeReader = resolve));
    }
  }

  private wake(): void {
    const resolve = this.wakeReader;
    this.wakeReader = null;
    resolve?.();
  }
}
