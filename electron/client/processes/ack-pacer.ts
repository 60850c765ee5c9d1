// When a flow-controlled process's consumption is told to its server (`process/ack`, cumulative
// bytes): once a step of the window was consumed since the last ack, so a consumer that keeps up
// costs a few acks per window rather than one per chunk; and again after a reconnect, since an ack
// in flight may have died with the old link.
import { ackStepBytes } from '../../../shared/protocol';
import { ACK_COALESCE_BYTES } from '../constants';

export class AckPacer {
  private consumed = 0;
  private sent = 0;
  private readonly stepBytes: number;
  /** Only without a known window: a trailing ack is due once the current task is done. */
  private trailingScheduled = false;

  /**
   * `windowBytes` is the window the process was started with. Unknown (following a process another
   * client started), no step is safe for every window, so a smaller step applies and whatever stays
   * below it still leaves once the current task is done, as every ack did before steps.
   */
  constructor(
    private readonly windowBytes: number | null,
    private readonly send: (consumedBytes: number) => void,
  ) {
    this.stepBytes = windowBytes === null ? ACK_COALESCE_BYTES : ackStepBytes(windowBytes);
  }

  /** The consumer has taken `consumedBytes` of output in all (a smaller count than before is ignored). */
  consumedTo(consumedBytes: number): void {
    if (consumedBytes <= this.consumed) return;
    this.consumed = consumedBytes;
    if (this.consumed - this.sent >= this.stepBytes) this.flush();
    else if (this.windowBytes === null && !this.trailingScheduled) {
      this.trailingScheduled = true;
      setImmediate(() => {
        this.trailingScheduled = false;
        this.flush();
      });
    }
  }

  /** A new connection knows none of the acks sent before: tell it the count so far. */
  resend(): void {
    if (this.consumed === 0) return;
    this.sent = 0;
    this.flush();
  }

  private flush(): void {
    if (this.consumed <= this.sent) return;
    this.sent = this.consumed;
    this.send(this.consumed);
  }
}
