// Auto-forwarding of the ports processes Tether started listen on, found from the host's listening
// sockets (listening-ports.ts) rather than from what they print: a port whose listener is one of
// the environment's processes, or a descendant of one (a dev server run from a terminal's shell),
// is forwarded, once per port unless a user stops it; every other port is only listed. A forward
// detection made (here or from a printed URL) goes when its port stops listening, and one made
// here also when the process it was found through ends. Polled as listening-poll.ts says.
import type { ForwardView, ListeningPortView, PortProcess, ProcessView } from '../../../shared/ipc';
import { errorMessage } from '../../../shared/error-message';
import type { ExecServerClientApi } from '../../client/api';
import type { ProcessOutputWatcher } from '../processes/process-flow';
import type { DetectedBy } from './forward-manager';
import { listeningPorts, listeningView, startedBy, type HostListener } from './listening-ports';
import { ListeningPoll } from './listening-poll';

/** Scans in a row whose new forwards are gathered into one notice (see apply). */
const SETTLE_ROUNDS = 3;
/** How long after a scan's forwards are bound the scan that follows them up reads the host. */
const SETTLE_DELAY_MS = 300;

export interface SocketPortForwarderDeps {
  /** Whether `envId`'s ports are worth forwarding (not Local's: they already work here). */
  wanted(envId: string): boolean;
  /** The environment's client while it is connected, else null. */
  connectedClient(envId: string): ExecServerClientApi | null;
  /** The environment's processes (the ones Tether started or follows). */
  processes(envId: string): ProcessView[];
  list(envId: string): ForwardView[];
  add(envId: string, port: number, origin: DetectedBy): Promise<ForwardView>;
  stop(envId: string, id: string): Promise<void>;
  /** A scan found which process listens on a detected forward's port that had none (a printed one). */
  identify(envId: string, id: string, process: PortProcess): void;
  detected(envId: string, forward: ForwardView): void;
  failed(message: string): void;
}

export class SocketPortForwarder implements ProcessOutputWatcher {
  private readonly poll: ListeningPoll;
  private readonly scans = new Map<string, Promise<HostListener[]>>();
  /** What the last scan of each environment found, to tell a change. */
  private readonly lastFound = new Map<string, string>();
  /** Forward id → the process it was found through (forwards made here). */
  private readonly madeFor = new Map<string, { envId: string; processId: string }>();
  /** Ids of detected forwards whose port a scan found listening: they go once it is not. */
  private readonly seenListening = new Set<string>();
  /** `envId` → scan rounds whose forwards are being bound or followed up (see apply). */
  private readonly settling = new Map<string, number>();
  /** `envId\0port` not to forward again this run: stopped by hand, failed to bind, or being added. */
  private readonly leftAlone = new Set<string>();

  constructor(private readonly deps: SocketPortForwarderDeps) {
    this.poll = new ListeningPoll({
      active: (envId) => this.active(envId),
      poll: (envId) => this.pollOnce(envId),
    });
  }

  running(process: ProcessView): void {
    this.poll.wake(process.envId);
  }

  printed(process: ProcessView): void {
    this.poll.wake(process.envId);
  }

  ended(process: ProcessView): void {
    const live = new Set(this.listOf(process.envId).map((f) => f.id));
    for (const [id, made] of this.madeFor) {
      if (made.envId !== process.envId || made.processId !== process.processId) continue;
      this.madeFor.delete(id);
      if (live.has(id)) this.stopQuietly(process.envId, id);
    }
    // Its descendants may have gone with it; the next poll (if any process is left) tells.
    this.poll.wake(process.envId);
  }

  linkChanged(envId: string, connected: boolean): void {
    if (connected) this.poll.wake(envId);
    else this.poll.stop(envId);
  }

  /** A user stopped a detected forward: its port is not forwarded by itself again this run. */
  stoppedByHand(envId: string, forward: ForwardView): void {
    this.leftAlone.add(`${envId}\0${forward.port}`);
    this.madeFor.delete(forward.id);
  }

  environmentRemoved(envId: string): void {
    this.poll.stop(envId);
    this.lastFound.delete(envId);
    this.settling.delete(envId);
    for (const [id, made] of this.madeFor) if (made.envId === envId) this.madeFor.delete(id);
  }

  /**
   * A scan now, out of turn: a URL was just forwarded, and its notice (gathered for a moment in
   * detection-notices.ts) can then name the process that listens.
   */
  scanSoon(envId: string): void {
    if (this.deps.connectedClient(envId) === null) return;
    void this.pollOnce(envId).catch(() => undefined);
  }

  /** Whether `envId` is being polled now. */
  isPolling(envId: string): boolean {
    return this.poll.isPolling(envId);
  }

  close(): void {
    this.poll.close();
  }

  /** forwards.listening: the host's listening ports now, acted on as a poll's would be. */
  async listening(envId: string): Promise<ListeningPortView[]> {
    const found = await this.scanNow(envId);
    if (found === null) return [];
    this.apply(envId, found);
    const processes = this.deps.processes(envId);
    return found.map((listener) => listeningView(listener, processes));
  }

  private active(envId: string): boolean {
    return (
      this.deps.wanted(envId) &&
      this.deps.connectedClient(envId) !== null &&
      this.deps.processes(envId).some((p) => p.state === 'running' || p.state === 'starting')
    );
  }

  private async pollOnce(envId: string): Promise<boolean> {
    const found = await this.scanNow(envId);
    if (found === null) return false;
    const signature = found.map((l) => `${l.port}:${l.pid ?? ''}`).join(',');
    const changed = this.lastFound.get(envId) !== signature;
    this.lastFound.set(envId, signature);
    this.apply(envId, found);
    return changed;
  }

  /** One scan of the host (a poll and the Ports panel asking at once share it); null when not connected. */
  private async scanNow(envId: string): Promise<HostListener[] | null> {
    const client = this.deps.connectedClient(envId);
    if (!client) return null;
    let scan = this.scans.get(envId);
    if (!scan) {
      scan = listeningPorts(client).finally(() => this.scans.delete(envId));
      this.scans.set(envId, scan);
    }
    return scan;
  }

  /** Acts on a scan; answers how many forwards it set out to make. */
  private apply(envId: string, found: HostListener[]): number {
    const forwards = this.listOf(envId);
    const listening = new Map(found.map((l) => [l.port, l]));
    for (const f of forwards) {
      if (!f.auto) continue;
      const listener = listening.get(f.port);
      if (listener) {
        this.seenListening.add(f.id);
        if (f.process === null && listener.pid !== null)
          this.deps.identify(envId, f.id, { pid: listener.pid, name: listener.name ?? '?' });
      } else if (this.seenListening.delete(f.id)) {
        this.madeFor.delete(f.id);
        this.stopQuietly(envId, f.id);
      }
    }
    if (!this.deps.wanted(envId)) return 0;
    const processes = this.deps.processes(envId);
    const covered = new Set(forwards.map((f) => f.port));
    const adds: Array<Promise<ForwardView | null>> = [];
    const failures: string[] = [];
    for (const listener of found) {
      const key = `${envId}\0${listener.port}`;
      if (covered.has(listener.port) || this.leftAlone.has(key)) continue;
      const owner = startedBy(listener, processes);
      if (!owner) continue;
      this.leftAlone.add(key);
      const process: PortProcess = { pid: listener.pid, name: listener.name ?? owner.title };
      adds.push(
        this.deps.add(envId, listener.port, { foundBy: 'listeningSocket', process }).then(
          (forward) => (this.made(envId, owner, forward, key) ? forward : null),
          // Not tried again this run: a port that cannot be bound would fail at every poll.
          (e: unknown) => {
            failures.push(`${listener.port} (${errorMessage(e)})`);
            return null;
          },
        ),
      );
    }
    if (adds.length === 0) return 0;
    const round = (this.settling.get(envId) ?? 0) + 1;
    this.settling.set(envId, round);
    // What one scan found is announced together once all of it is bound (binding 50 ports takes a
    // while), and one warning says which could not be, not one each. A process opening many ports
    // may have opened only some when the scan read them: another scan follows at once, and the
    // notice waits for it (settling), so they make one notice, not two.
    void Promise.all(adds).then((made) => {
      for (const forward of made) if (forward) this.deps.detected(envId, forward);
      if (failures.length > 0) this.deps.failed(`Ports not forwarded: ${failures.join(', ')}.`);
      if (round < SETTLE_ROUNDS) void this.followUp(envId);
      else this.settling.delete(envId);
    });
    return adds.length;
  }

  /** Whether forwards a scan found are still being bound, or a scan after them is on its way. */
  isSettling(envId: string): boolean {
    return this.settling.has(envId);
  }

  private async followUp(envId: string): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_DELAY_MS).unref());
    // A scan that began before these binds may have read the host before the rest listened.
    await this.scans.get(envId)?.catch(() => undefined);
    const found = await this.scanNow(envId).catch(() => null);
    if (found === null || this.apply(envId, found) === 0) this.settling.delete(envId);
  }

  /** Records a forward this scan made; false when its process ended meanwhile (it is stopped). */
  private made(envId: string, owner: ProcessView, forward: ForwardView, key: string): boolean {
    // Forwarding again is up to later scans (after a stop by hand it stays left alone).
    this.leftAlone.delete(key);
    this.madeFor.set(forward.id, { envId, processId: owner.processId });
    this.seenListening.add(forward.id);
    const stillRunning = this.deps
      .processes(envId)
      .some((p) => p.processId === owner.processId && (p.state === 'running' || p.state === 'starting'));
    if (!stillRunning) {
      // It ended while the port was being bound.
      this.madeFor.delete(forward.id);
      this.stopQuietly(envId, forward.id);
      return false;
    }
    return true;
  }

  private listOf(envId: string): ForwardView[] {
    try {
      return this.deps.list(envId);
    } catch {
      return []; // The environment is gone.
    }
  }

  private stopQuietly(envId: string, id: string): void {
    this.seenListening.delete(id);
    this.deps.stop(envId, id).catch((e: unknown) => this.deps.failed(errorMessage(e)));
  }
}
