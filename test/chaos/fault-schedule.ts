// Drives a FaultProxy through a bounded, seeded series of network faults while a chaos test runs:
// cuts, refused reconnects, silent stalls (optionally ending in a cut), latency and throttling. The
// first fault of a run always ends the connections, so no run passes without a reconnect.
import type { FaultProxy } from '../support/fault-proxy';
import { randomInt, type Random } from '../support/seeded-random';

/** Hard bounds of one schedule, whatever a test asks for. */
const MAX_FAULTS_PER_RUN = 50;
const MAX_OUTAGE_MS = 2_000;

type FaultKind = 'cut' | 'cut-refuse' | 'stall' | 'stall-cut' | 'latency' | 'throttle';
const ALL_FAULT_KINDS: readonly FaultKind[] = [
  'cut',
  'cut-refuse',
  'stall',
  'stall-cut',
  'latency',
  'throttle',
];

/** The kinds that end the live connections (the rest only slow or silence them). */
const CUTTING_FAULT_KINDS: readonly FaultKind[] = ['cut', 'cut-refuse', 'stall-cut'];

/** Why a run whose schedule cut nothing fails instead of passing. */
export const NO_CUT_PROVES_NOTHING = 'no connection was cut while the stream ran, so this run proved nothing';

export interface FaultScheduleOptions {
  proxy: FaultProxy;
  random: Random;
  /** At most this many faults (capped at MAX_FAULTS_PER_RUN). */
  maxFaults?: number;
  /** Outage lengths are drawn from [0, maxOutageMs] (capped at MAX_OUTAGE_MS). */
  maxOutageMs?: number;
  /** Healthy time between two faults is drawn from this range. */
  quietMs?: [number, number];
  kinds?: readonly FaultKind[];
}

export interface AppliedFault {
  kind: FaultKind;
  atMs: number;
  outageMs: number;
  /** Connections the fault cut (cuts only). */
  cut?: number;
}

/** A running schedule; stop() ends the current fault, restores the proxy and returns what happened. */
export class FaultSchedule {
  readonly faults: AppliedFault[] = [];
  private stopping = false;
  private wake: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly done: Promise<void>;
  private readonly startedAt = Date.now();

  constructor(private readonly options: FaultScheduleOptions) {
    this.done = this.run();
  }

  async stop(): Promise<AppliedFault[]> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.wake?.();
    await this.done;
    return this.faults;
  }

  /** Connections the faults so far have ended; a chaos run that relies on faults needs at least one. */
  connectionsCut(): number {
    return this.faults.reduce((sum, f) => sum + (f.cut ?? 0), 0);
  }

  describe(): string {
    return this.faults
      .map((f) => `${f.kind}@${f.atMs}ms/${f.outageMs}ms${f.cut ? `×${f.cut}` : ''}`)
      .join(' ');
  }

  private async run(): Promise<void> {
    const { proxy, random } = this.options;
    const maxFaults = Math.min(this.options.maxFaults ?? MAX_FAULTS_PER_RUN, MAX_FAULTS_PER_RUN);
    const maxOutageMs = Math.min(this.options.maxOutageMs ?? MAX_OUTAGE_MS, MAX_OUTAGE_MS);
    const [quietMin, quietMax] = this.options.quietMs ?? [50, 500];
    const kinds = this.options.kinds ?? ALL_FAULT_KINDS;
    const cutting = kinds.filter((k) => CUTTING_FAULT_KINDS.includes(k));
    try {
      while (!this.stopping && this.faults.length < maxFaults) {
        await this.sleep(randomInt(random, quietMin, quietMax));
        if (this.stopping) break;
        const pool = this.faults.length === 0 && cutting.length > 0 ? cutting : kinds;
        const kind = pool[Math.floor(random() * pool.length)]!;
        // A plain cut has no outage: the link is back at once, only the connections are gone.
        const outageMs = kind === 'cut' ? 0 : randomInt(random, 0, maxOutageMs);
        const fault: AppliedFault = { kind, atMs: Date.now() - this.startedAt, outageMs };
        this.faults.push(fault);
        switch (kind) {
          case 'cut':
            fault.cut = proxy.cutAll();
            break;
          case 'cut-refuse':
            fault.cut = proxy.cutAll();
            proxy.refuseNew(true);
            break;
          case 'stall':
          case 'stall-cut':
            proxy.stall();
            break;
          case 'latency':
            proxy.setLatency(randomInt(random, 20, 400));
            break;
          case 'throttle':
            proxy.throttle(randomInt(random, 16, 256) * 1024);
            break;
        }
        await this.sleep(outageMs);
        if (kind === 'stall-cut') fault.cut = proxy.cutAll();
        proxy.restore();
      }
    } finally {
      proxy.restore();
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, ms);
    }).then(() => {
      this.wake = null;
      this.timer = null;
    });
  }
}
