// The liveness of one connection: whether we wait for the peer and how long it has been silent,
// the idle keepalive ping, the stall (reported on change), and when a silent peer is given up:
// DEAD_AFTER_MS into the wait on a link with pings, the stall-reconnect limit on one without.
// ExecServerConnection (connection.ts) runs its tick and tells it what goes out and comes in.
import { ClientError } from '../client-error';
import { DEAD_AFTER_MS, IDLE_PING_AFTER_MS, STALLED_AFTER_MS } from '../constants';
import type { Transport } from '../transports/transport-types';

export class Liveness {
  private lastPingAt = 0;
  /** When we started waiting for the peer without having heard from it since (null: not waiting). */
  private awaitingSince: number | null = null;
  /** Epoch ms of the last inbound byte. */
  lastInboundAt: number = Date.now();
  /** The stall last reported through `stallChanged`. */
  private stallReported = false;

  constructor(
    /** A link without pings that stays stalled this long is closed (null: never, it cannot be replaced). */
    private readonly stallLimitMs: number | null,
    private readonly stallChanged: (stalled: boolean, silentMs: number) => void,
  ) {}

  /** True while we wait for the peer and it has been silent for longer than STALLED_AFTER_MS. */
  get stalled(): boolean {
    return this.awaitingSince !== null && Date.now() - this.awaitingSince > STALLED_AFTER_MS;
  }

  /**
   * When the connection closes itself if the peer stays silent: DEAD_AFTER_MS into the wait on a
   * link with pings, the stall limit on one without. Null while not waiting, or when never.
   */
  giveUpAt(transport: Transport | null): number | null {
    if (this.awaitingSince === null) return null;
    const limit = transport?.hasPings ? DEAD_AFTER_MS : this.stallLimitMs;
    return limit === null ? null : this.awaitingSince + limit;
  }

  /** Something went out: from now on we wait for the peer, unless we already do. */
  sent(): void {
    this.awaitingSince ??= Date.now();
  }

  /** A byte came in: the peer is alive, and we wait for nothing. */
  heard(): void {
    const now = Date.now();
    if (this.stallReported) {
      this.stallReported = false;
      this.stallChanged(false, now - (this.awaitingSince ?? now));
    }
    this.lastInboundAt = now;
    this.awaitingSince = null;
  }

  /** Pings an idle link, reports a stall; returns why to close when the peer is given up. */
  tick(now: number, transport: Transport | null): ClientError | null {
    if (transport?.hasPings) {
      if (now - this.lastInboundAt >= IDLE_PING_AFTER_MS && now - this.lastPingAt >= IDLE_PING_AFTER_MS) {
        this.lastPingAt = now;
        transport.ping();
        this.awaitingSince ??= now;
      }
    }
    const giveUpAt = this.giveUpAt(transport);
    if (giveUpAt !== null && now > giveUpAt) {
      const silentS = Math.round((now - this.lastInboundAt) / 1000);
      const description = transport?.description ?? '';
      // Only transports with pings can tell a busy peer from a dead one; others are given up as stalled.
      return new ClientError(
        'disconnected',
        transport?.hasPings
          ? `No data from ${description} for ${silentS} s while waiting for an answer; the link is considered dead.`
          : `No reply from ${description} for ${silentS} s; the stalled link is given up for a new one.`,
      );
    }
    const stalled = this.stalled;
    if (stalled !== this.stallReported) {
      this.stallReported = stalled;
      this.stallChanged(stalled, now - (this.awaitingSince ?? now));
    }
    return null;
  }
}
