// How many blocks a streamed file transfer keeps in flight: enough to fill the link's bandwidth ×
// delay, as the transfer itself measures them (the quickest answer to a block so far, and the
// bytes answered per second lately), doubled for headroom and bounded so no transfer holds more
// than FS_WINDOW_MAX_BYTES in flight, whatever the link.
import {
  FS_WINDOW_INITIAL_BLOCKS,
  FS_WINDOW_MAX_BYTES,
  FS_WINDOW_MIN_BLOCKS,
  FS_WINDOW_RATE_SPAN_MS,
} from '../constants';

export class TransferWindow {
  private readonly maxBlocks: number;
  private size: number;
  private quickestMs = Infinity;
  /** Answers within the rate span, oldest first, and the bytes of all but the oldest. */
  private readonly answers: Array<{ at: number; bytes: number }> = [];
  private bytesAfterOldest = 0;

  constructor(
    private readonly blockBytes: number,
    readonly now: () => number = () => performance.now(),
  ) {
    this.maxBlocks = Math.max(FS_WINDOW_MIN_BLOCKS, Math.floor(FS_WINDOW_MAX_BYTES / blockBytes));
    this.size = Math.min(FS_WINDOW_INITIAL_BLOCKS, this.maxBlocks);
  }

  /** Blocks to keep in flight now. */
  get blocks(): number {
    return this.size;
  }

  /** A block of `bytes` sent at `sentAt` (a `now()` reading) was answered just now. */
  answered(bytes: number, sentAt: number): void {
    const at = this.now();
    this.quickestMs = Math.min(this.quickestMs, Math.max(0, at - sentAt));
    this.answers.push({ at, bytes });
    if (this.answers.length > 1) this.bytesAfterOldest += bytes;
    while (this.answers.length > 2 && this.answers[0]!.at < at - FS_WINDOW_RATE_SPAN_MS) {
      this.answers.shift();
      this.bytesAfterOldest -= this.answers[0]!.bytes;
    }
    const spanMs = at - this.answers[0]!.at;
    if (this.answers.length < 2 || spanMs <= 0) return;
    const bandwidthDelayBytes = (this.bytesAfterOldest / spanMs) * this.quickestMs;
    const wanted = Math.ceil((2 * bandwidthDelayBytes) / this.blockBytes) + 1;
    this.size = Math.min(this.maxBlocks, Math.max(FS_WINDOW_MIN_BLOCKS, wanted));
  }
}
