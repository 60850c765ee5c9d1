// Remembers the most recent accepted writes of one process (FIFO), each writeId with a digest of its
// bytes, so a client that resends a `process/write` after an ambiguous disconnect does not write
// twice. A resend carries the same id and the same bytes. The same id with other bytes is never a
// resend (it comes from another client that numbers its ids the same way, such as an earlier app
// instance): it is a new write, and answering `accepted` without writing it would lose the bytes.
import { hash } from 'node:crypto';

/** Writes up to this long (keystrokes, escape sequences) are kept as they are: hashing cost more. */
const VERBATIM_BYTES = 16;

/**
 * What `WriteDedup` compares: equal for equal bytes. A short write itself (after `=`, which no
 * base64 begins with), else a truncated SHA-256, to keep entries small.
 */
export function writeDigest(bytes: Uint8Array): string {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length <= VERBATIM_BYTES) return `=${view.toString('latin1')}`;
  return hash('sha256', view, 'base64').slice(0, 22);
}

interface Entry {
  writeId: string;
  digest: string;
}

export class WriteDedup {
  private readonly order: Entry[] = [];
  private head = 0;
  /** The newest entry of each remembered id. */
  private readonly latest = new Map<string, Entry>();

  constructor(private readonly window: number) {}

  /** This id was accepted with these very bytes: a resend, not to be written again. */
  isResend(writeId: string, digest: string): boolean {
    return this.latest.get(writeId)?.digest === digest;
  }

  remember(writeId: string, digest: string): void {
    if (this.isResend(writeId, digest)) return;
    const entry: Entry = { writeId, digest };
    this.latest.set(writeId, entry);
    this.order.push(entry);
    if (this.order.length - this.head > this.window) {
      const oldest = this.order[this.head]!;
      // An id reused with other bytes has a newer entry, which stays until it is the oldest itself.
      if (this.latest.get(oldest.writeId) === oldest) this.latest.delete(oldest.writeId);
      this.head++;
      if (this.head > 1024 && this.head * 2 > this.order.length) {
        this.order.splice(0, this.head);
        this.head = 0;
      }
    }
  }
}
