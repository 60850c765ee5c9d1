// Remembers the most recent accepted writeIds of one process (FIFO), so a client that resends a
// `process/write` after an ambiguous disconnect does not write twice.
export class WriteDedup {
  private readonly order: string[] = [];
  private head = 0;
  private readonly seen = new Set<string>();

  constructor(private readonly window: number) {}

  has(writeId: string): boolean {
    return this.seen.has(writeId);
  }

  remember(writeId: string): void {
    if (this.seen.has(writeId)) return;
    this.seen.add(writeId);
    this.order.push(writeId);
    if (this.order.length - this.head > this.window) {
      this.seen.delete(this.order[this.head]!);
      this.head++;
      if (this.head > 1024 && this.head * 2 > this.order.length) {
        this.order.splice(0, this.head);
        this.head = 0;
      }
    }
  }
}
