// Input for one terminal, written on the main thread with synchronous writes to the non-blocking
// master, so none is ever in flight: once close() returned, nothing touches the descriptor, and the
// master may be closed (by the reader thread, once the slave is released) and its number reused.
// node-pty's own writer queued fs.write calls on the thread pool, and one still queued at the exit
// ran after the close: EBADF, or a write into whatever file got the number. Written here rather
// than by the reader thread, keystrokes take no thread hop on their way to the program.
import { writeSync } from 'node:fs';

/** Waits after a retry that moved nothing: a program that stopped reading costs few wake-ups. */
const IDLE_RETRY_MS = [1, 2, 4, 8, 16] as const;

export class TerminalInput {
  private readonly queue: Buffer[] = [];
  /** Bytes of the queue's head already written. */
  private offset = 0;
  /** Cancels the retry that is waiting, if one is. */
  private retry: (() => void) | null = null;
  private idleRetries = 0;
  private closed = false;

  constructor(private readonly fd: number) {}

  write(data: Uint8Array): void {
    if (this.closed || data.byteLength === 0) return;
    const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    let at = 0;
    if (this.queue.length === 0) {
      // Nothing waits: straight from the caller's buffer, which is not ours to keep.
      try {
        at = writeSync(this.fd, view);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') {
          this.close();
          return;
        }
      }
      if (at === view.length) return;
    }
    // What waits is copied: the caller may reuse its buffer (a data frame's) once this returns.
    this.queue.push(Buffer.from(view.subarray(at)));
    if (this.retry === null && this.queue.length === 1) this.scheduleRetry(at > 0);
  }

  /** Drops what is queued: the terminal is closing, and nobody will read it. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.cancelRetry();
  }

  private flush(): void {
    this.retry = null;
    let moved = false;
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      let written: number;
      try {
        written = writeSync(this.fd, head, this.offset, head.length - this.offset);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
          this.scheduleRetry(moved);
        } else {
          // EIO once the program is gone: the master's end follows, and the input has no reader.
          this.close();
        }
        return;
      }
      moved ||= written > 0;
      this.offset += written;
      if (this.offset === head.length) {
        this.queue.shift();
        this.offset = 0;
      }
    }
    this.idleRetries = 0;
  }

  /** The terminal is full. While the program keeps reading, try again at once; else back off. */
  private scheduleRetry(moved: boolean): void {
    if (moved) {
      this.idleRetries = 0;
      const immediate = setImmediate(() => this.flush());
      this.retry = () => clearImmediate(immediate);
      return;
    }
    const wait = IDLE_RETRY_MS[Math.min(this.idleRetries, IDLE_RETRY_MS.length - 1)]!;
    this.idleRetries++;
    const timer = setTimeout(() => this.flush(), wait);
    this.retry = () => clearTimeout(timer);
  }

  private cancelRetry(): void {
    this.retry?.();
    this.retry = null;
  }
}
