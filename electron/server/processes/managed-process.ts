// One process of a session: its seq counter, retained output, exit/close state, write dedup,
// long-poll waiters and the reasons its output is not being read (flow-control window or a
// congested connection). Notifications go to the owning session's `emit`, which drops them when
// detached, and to every session watching it (`process/attach`) under that session's id for it.
import { descendantPids, killPids } from './process-tree';
import {
  Notification,
  type OutputStream,
  type ProcessReadResult,
  type ProcessState,
  type ProcessSignalName,
  type WriteStatus,
} from '../../../shared/protocol';
import type { ChildIo } from './child-spawn';
import { flowControlledRetentionSlack } from '../limits';
import type { OutboundMessage } from '../rpc/outbound';
import { OutputLog } from './output-log';
import type { RingLease } from '../reader/output-ring';
import { RpcError } from '../rpc/rpc-error';
import { WriteDedup, writeDigest } from './write-dedup';

export interface ProcessLimits {
  retainedOutputBytes: number;
  retainedOutputChunks: number;
  writeIdWindow: number;
}

// Notifications are spelled out as JSON text, not stringified objects: they are the hot path.
const EXITED_HEAD = `{"method":"${Notification.processExited}","params":{"processId":`;
const CLOSED_HEAD = `{"method":"${Notification.processClosed}","params":{"processId":`;

const SIGNALS: Record<ProcessSignalName, NodeJS.Signals> = {
  interrupt: 'SIGINT',
  terminate: 'SIGTERM',
  kill: 'SIGKILL',
  hangup: 'SIGHUP',
  quit: 'SIGQUIT',
  suspend: 'SIGTSTP',
  continue: 'SIGCONT',
};

/** What a process was started as, for `session/list`. */
export interface ProcessLaunch {
  argv: string[];
  /** Absolute path. */
  cwd: string;
}

/** A session's view of a process: the id it knows the process by, and where its notifications go. */
export interface ProcessTie {
  id: string;
  emit: (message: OutboundMessage) => void;
}

/**
 * Output streams whose end a process reports (ChildCallbacks.streamEnd): a pty's master, or stdout
 * and stderr. Known before the spawn returns, because the ends can arrive before it does.
 */
const outputStreamCount = (tty: boolean): number => (tty ? 1 : 2);

export class ManagedProcess {
  private idJson: string;
  /** Epoch ms of the start. */
  readonly startedAt = Date.now();
  /** Sessions that attached to this process, by the key their session chose. */
  private readonly watchers = new Map<object, ProcessTie & { idJson: string }>();
  private readonly log: OutputLog;
  /** Output bytes the log retains at most (the reader's rings are sized by it). */
  readonly retentionBytes: number;
  /** What the log keeps of a closed process's acknowledged output (`process/read`, a late attach). */
  private readonly closedRetentionBytes: number;
  private readonly dedup: WriteDedup;
  private io: ChildIo | null = null;
  private nextSeq = 1;
  private exitCode: number | null = null;
  private closed = false;
  /** `process/closeStdin` ran: later writes get `stdinClosed`, a repeated close does nothing. */
  private stdinEnded = false;
  /** Killed by process/terminate: its stdin is gone, and writes fail as codex's do. */
  private terminated = false;
  /** Output streams not ended yet; set before the spawn, whose events may come before bind(). */
  private openStreams: number;
  private readonly waiters = new Set<() => void>();
  private produced = 0;
  private acked = 0;
  private congested = false;

  constructor(
    private ownId: string,
    readonly tty: boolean,
    limits: ProcessLimits,
    private readonly outputWindowBytes: number | null,
    private ownerEmit: (message: OutboundMessage) => void,
    private onClosed: (process: ManagedProcess) => void,
    readonly launch: ProcessLaunch = { argv: [], cwd: '/' },
  ) {
    this.idJson = JSON.stringify(ownId);
    this.openStreams = outputStreamCount(tty);
    this.log = new OutputLog(limits.retainedOutputBytes, limits.retainedOutputChunks);
    this.retentionBytes = limits.retainedOutputBytes;
    this.closedRetentionBytes = limits.retainedOutputBytes;
    if (outputWindowBytes !== null) {
      const covered = outputWindowBytes + flowControlledRetentionSlack(outputWindowBytes);
      this.log.ensureCapacity(covered);
      this.retentionBytes = Math.max(this.retentionBytes, covered);
    }
    this.dedup = new WriteDedup(limits.writeIdWindow);
  }

  /** The id in the owning session. */
  get id(): string {
    return this.ownId;
  }

  get exitStatus(): number | null {
    return this.exitCode;
  }

  get state(): ProcessState {
    if (this.closed) return 'closed';
    return this.exitCode === null ? 'running' : 'exited';
  }

  // ── Owner and watchers ────────────────────────────────────────────────────────────────────

  /** Another session follows this process as `tie.id`: it gets every notification from now on. */
  addWatcher(key: object, tie: ProcessTie): void {
    this.watchers.set(key, { ...tie, idJson: JSON.stringify(tie.id) });
  }

  removeWatcher(key: object): void {
    this.watchers.delete(key);
  }

  /** Another session takes the process over, as `id` (process/keep); the old one may watch on. */
  transferTo(
    id: string,
    emit: (message: OutboundMessage) => void,
    onClosed: (process: ManagedProcess) => void,
  ): void {
    this.ownId = id;
    this.idJson = JSON.stringify(id);
    this.ownerEmit = emit;
    this.onClosed = onClosed;
  }

  /** To the owner and every watcher, each under its own id for the process. */
  private emit(message: (idJson: string) => OutboundMessage): void {
    this.ownerEmit(message(this.idJson));
    for (const watcher of this.watchers.values()) watcher.emit(message(watcher.idJson));
  }

  /**
   * Binds the spawned child; called once, right after a successful spawn. Its output, stream ends
   * and exit may already have come (the reader thread posts them with the spawn in one batch).
   */
  bind(io: ChildIo): void {
    this.io = io;
    this.updateReading();
  }

  get pid(): number {
    return this.io?.pid ?? 0;
  }

  get exited(): boolean {
    return this.exitCode !== null;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  // ── Child events ──────────────────────────────────────────────────────────────────────────

  /**
   * One batch of output from the reader thread, which already joined a busy stream's reads under
   * the coalescing policy: it leaves as it came (a second pass here measured no gain, see
   * docs/exec-server.md). With a lease the bytes lie in the reader's ring: the log holds them there
   * and releases the lease when it evicts them, and every notification is encoded at once.
   */
  onData(stream: OutputStream, data: Buffer, lease: RingLease | null = null): void {
    if (data.length === 0) return;
    this.produced += data.length;
    if (this.outputWindowBytes !== null) this.updateReading();
    const seq = this.nextSeq++;
    this.log.append({ seq, stream, data, lease });
    // Encoded by the connection it leaves on: base64 JSON, or a binary data frame.
    this.emit((processIdJson) => ({ kind: 'processOutput', processIdJson, seq, stream, data }));
    this.wake();
  }

  onStreamEnd(): void {
    this.openStreams--;
    this.maybeClose();
  }

  onExit(exitCode: number): void {
    if (this.exitCode !== null) return;
    this.exitCode = exitCode;
    const seq = this.nextSeq++;
    this.emit(
      (idJson) => `${EXITED_HEAD}${idJson},"seq":${seq},"exitCode":${exitCode},"sandboxDenied":false}}`,
    );
    this.maybeClose();
    this.wake();
  }

  private maybeClose(): void {
    if (this.closed || this.exitCode === null || this.openStreams > 0) return;
    this.closed = true;
    // No more output comes: the retained tail leaves the reader's rings, so they can be freed.
    this.log.detachFromRings();
    this.trimAcknowledged();
    const seq = this.nextSeq++;
    this.emit((idJson) => `${CLOSED_HEAD}${idJson},"seq":${seq}}}`);
    this.wake();
    this.onClosed(this);
  }

  // ── Requests ──────────────────────────────────────────────────────────────────────────────

  async read(
    afterSeq: number,
    maxBytes: number | null,
    waitMs: number,
    signal: AbortSignal,
  ): Promise<ProcessReadResult> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const chunks = this.log.select(afterSeq, maxBytes);
      const ready =
        chunks.length > 0 || this.closed || (this.exitCode !== null && afterSeq < this.nextSeq - 1);
      const remaining = deadline - Date.now();
      if (ready || remaining <= 0 || signal.aborted) {
        const last = chunks[chunks.length - 1];
        return {
          // Raw bytes: the connection sends them as base64 or in a data frame.
          chunks: chunks.map((c) => ({ seq: c.seq, stream: c.stream, chunk: c.data })),
          nextSeq: maxBytes !== null && last ? last.seq + 1 : this.nextSeq,
          exited: this.exitCode !== null,
          exitCode: this.exitCode,
          closed: this.closed,
          failure: null,
          sandboxDenied: false,
        };
      }
      await this.waitForChange(remaining, signal);
    }
  }

  private waitForChange(timeoutMs: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
      signal.addEventListener('abort', done);
    });
  }

  private wake(): void {
    if (this.waiters.size === 0) return;
    for (const waiter of [...this.waiters]) waiter();
  }

  write(chunk: Buffer, writeId: string): WriteStatus {
    if (!this.io?.stdinWritable) return 'stdinClosed';
    const digest = writeDigest(chunk);
    // A resent write that was accepted before the close is still answered as accepted.
    if (this.dedup.isResend(writeId, digest)) return 'accepted';
    // Codex 0.171.0 answers -32603 with this text once the process was terminated.
    if (this.terminated) throw RpcError.internal('failed to write to process stdin');
    if (this.stdinEnded) return 'stdinClosed';
    this.dedup.remember(writeId, digest);
    if (this.exitCode === null && chunk.length > 0) this.io.write(chunk);
    return 'accepted';
  }

  /** Ends the process's input, once: a retried close (after a reconnect) sends no second EOF. */
  closeStdin(): WriteStatus {
    if (!this.io?.stdinWritable) return 'stdinClosed';
    if (!this.stdinEnded && this.exitCode === null) this.io.closeStdin();
    this.stdinEnded = true;
    return 'accepted';
  }

  signal(name: ProcessSignalName): void {
    if (this.exitCode === null) this.io?.signalGroup(SIGNALS[name]);
  }

  /** SIGKILL to the process group; reports whether the process was still running. */
  terminate(): boolean {
    if (this.exitCode !== null) return false;
    this.terminated = true;
    this.killTree();
    this.wake();
    return true;
  }

  /** Kills the group even after the leader exited, so stray background children die too. */
  killGroup(): void {
    this.killTree();
  }

  /**
   * SIGKILL to the group, and to every descendant that left it (setsid), collected before the
   * group dies: after that they would be init's, out of sight.
   */
  private killTree(): void {
    if (!this.io) return;
    const escapees = this.exitCode === null ? descendantPids(this.io.pid) : [];
    this.io.signalGroup('SIGKILL');
    killPids(escapees);
  }

  resize(cols: number, rows: number): boolean {
    return this.exitCode === null && this.io !== null && this.io.resize(cols, rows);
  }

  // ── Flow control ──────────────────────────────────────────────────────────────────────────

  ack(consumedBytes: number): void {
    if (consumedBytes <= this.acked) return;
    this.acked = Math.min(consumedBytes, this.produced);
    this.updateReading();
    this.trimAcknowledged();
  }

  /**
   * A closed process keeps no more than the default retention of output its client acknowledged:
   * the window's extra room covers a resume while output still flows, and a closed process may
   * wait hours in a detached session (every `tether run` leaves one). Unacknowledged output stays.
   */
  private trimAcknowledged(): void {
    if (!this.closed || this.outputWindowBytes === null) return;
    this.log.lowerCapacity(Math.max(this.closedRetentionBytes, this.produced - this.acked));
  }

  setCongested(congested: boolean): void {
    if (this.congested === congested) return;
    this.congested = congested;
    this.updateReading();
  }

  private updateReading(): void {
    const windowFull =
      this.outputWindowBytes !== null && this.produced - this.acked >= this.outputWindowBytes;
    this.io?.setReading(!this.congested && !windowFull);
  }
}
