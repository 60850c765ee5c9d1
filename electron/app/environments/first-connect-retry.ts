// Retries an environment whose very first connect failed for a reason that may pass (the server
// is not up yet, the network is down, a timeout): every FIRST_CONNECT_RETRY_MS, and at once when
// the network may be back. Such a link never had a session, so a retry can lose nothing; failures
// that need the user (a rejected token, a changed certificate, an expired session) are left alone,
// and so are SSH environments, whose connect may ask questions.
import type { ConnectionState } from '../../client/api';
import { BACKOFF_STEADY_MS } from '../../client/constants';
import { isTransientCode } from '../../client/client-error';

/** The same steady pace as a reconnect after a drop. */
export const FIRST_CONNECT_RETRY_MS = BACKOFF_STEADY_MS;

export class FirstConnectRetry {
  private everConnected = false;
  private timer: NodeJS.Timeout | null = null;
  /** When the next retry runs, while one is planned (shown with the failure). */
  retryAt: number | null = null;

  constructor(
    /** Whether this environment may retry by itself (its kind can change when it is edited). */
    private readonly allowed: () => boolean,
    private readonly retry: () => void,
  ) {}

  /** A new client: nothing known about it yet. */
  reset(): void {
    this.everConnected = false;
    this.cancel();
  }

  linkChanged(state: ConnectionState): void {
    if (state.kind === 'connected') this.everConnected = true;
    this.cancel();
    if (this.waitingToRetry(state)) {
      this.retryAt = Date.now() + FIRST_CONNECT_RETRY_MS;
      this.timer = setTimeout(() => this.runNow(), FIRST_CONNECT_RETRY_MS);
    }
  }

  /** The network may be back: a planned retry runs now. */
  networkMayBeBack(): void {
    if (this.timer) this.runNow();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.retryAt = null;
  }

  private waitingToRetry(state: ConnectionState): boolean {
    return (
      this.allowed() &&
      !this.everConnected &&
      state.kind === 'failed' &&
      state.expiredAt === undefined &&
      isTransientCode(state.code)
    );
  }

  private runNow(): void {
    this.cancel();
    this.retry();
  }
}
