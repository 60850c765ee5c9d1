// One process the user started in an environment: its handle from the client, the view the UI
// shows, and the app-side event log that renderers stream from. Owns the process's state machine
// (starting → running → exited, or failed / lost) and the cumulative ack sent to the server.
import {
  lastSeqOf,
  type ProcessEventView,
  type ProcessView,
  type ShellCommand,
  type WatchedProcess,
} from '../../../shared/ipc';
import type { ProcessEvent, ProcessHandle, ProcessStartOptions } from '../../client/api';
import { PROCESS_LOG_LIMIT_BYTES, PROCESS_LOG_LIMIT_EVENTS } from '../limits';
import { ProcessLog, type OutputLogCap } from './process-log';
import { shellOfArgv } from './shell-launch';
import { ShellHistory } from './shell-history';

export interface ProcessRuntimeEvents {
  changed(view: ProcessView): void;
  appended(bytes: number): void;
  /** Output read for the first time (not a restart's replay of what was read before). */
  printed?(data: Uint8Array): void;
}

/** What a restart knows of a process it restores. */
export interface RestoredProcess {
  pid: number | null;
  startedAt: number;
  lastSeq: number;
  /** How it had ended, for one that ended before (or as) the previous run quit: shown as is. */
  ended?: Pick<ProcessView, 'exitCode' | 'failure' | 'endedAt'> & { state: 'exited' | 'failed' | 'lost' };
  /** The shell's command history as the previous run left it. */
  commands?: ShellCommand[];
}

export class ProcessRuntime {
  readonly log: ProcessLog;
  private handle: ProcessHandle | null = null;
  private unsubscribe: (() => void) | null = null;
  private serverAck = 0;
  private view: ProcessView;
  /** Restored after an app restart and not yet re-attached to its process on the server. */
  private awaitingReattach: boolean;
  /** The last seq delivered before the restart (what the previous run had shown). */
  private readonly restoredLastSeq: number;
  /**
   * The last seq some renderer's terminal has parsed: a replay marks events through it as already
   * shown (their terminal queries were answered then) and later ones as fresh, to be answered.
   */
  private shownSeq: number;
  /** The commands a shell in a terminal ran (only a terminal's program marks commands). */
  private readonly history: ShellHistory | null;

  constructor(
    readonly envId: string,
    readonly options: ProcessStartOptions & { processId: string },
    readonly resizable: boolean,
    private readonly listener: ProcessRuntimeEvents,
    /** Set for a process saved before an app restart: running (to re-attach) or ended. */
    restored?: RestoredProcess,
    /** The bound this process's output shares with every other process's. */
    cap: OutputLogCap | null = null,
  ) {
    this.log = new ProcessLog(PROCESS_LOG_LIMIT_BYTES, PROCESS_LOG_LIMIT_EVENTS, cap);
    this.awaitingReattach = restored !== undefined && restored.ended === undefined;
    this.restoredLastSeq = restored?.lastSeq ?? 0;
    // The previous run kept no record of what its terminals parsed: what it received counts as
    // shown (it most likely was), so a reload after the restart answers none of it again.
    this.shownSeq = this.restoredLastSeq;
    this.history = options.tty ? new ShellHistory(restored?.commands) : null;
    const commands = this.history?.commands;
    this.view = {
      envId,
      processId: options.processId,
      argv: options.argv,
      title: titleOf(options.argv),
      cwd: options.cwd,
      tty: options.tty,
      state: restored ? (restored.ended?.state ?? 'running') : 'starting',
      pid: restored?.pid ?? null,
      exitCode: restored?.ended?.exitCode ?? null,
      failure: restored?.ended?.failure ?? null,
      startedAt: restored?.startedAt ?? Date.now(),
      endedAt: restored?.ended?.endedAt ?? null,
      size: options.tty && options.size ? { ...options.size } : null,
      resizable,
      ...(commands ? { commands } : {}),
    };
  }

  get processId(): string {
    return this.options.processId;
  }

  get snapshot(): ProcessView {
    return { ...this.view };
  }

  get running(): boolean {
    return this.view.state === 'starting' || this.view.state === 'running';
  }

  get live(): ProcessHandle | null {
    return this.running ? this.handle : null;
  }

  /** The last seq delivered, in this run or (until this run catches up) the one before. */
  get lastDeliveredSeq(): number {
    return Math.max(this.log.lastSeq, this.restoredLastSeq);
  }

  get shownThroughSeq(): number {
    return this.shownSeq;
  }

  /** A renderer's terminal has parsed this process's output through `seq`. */
  shown(seq: number): void {
    this.shownSeq = Math.max(this.shownSeq, Math.min(seq, this.lastDeliveredSeq));
  }

  /** True once for a restored process: the caller re-attaches it to the server's process. */
  takeReattach(): boolean {
    const pending = this.awaitingReattach && this.running;
    this.awaitingReattach = false;
    return pending;
  }

  attach(handle: ProcessHandle): void {
    this.handle = handle;
    // A re-attached handle does not know the pid; the restored view does.
    this.update({ state: 'running', pid: handle.pid ?? this.view.pid });
    this.unsubscribe = handle.subscribe((event) => this.onEvent(event));
  }

  startFailed(message: string): void {
    this.update({ state: 'failed', failure: message, endedAt: Date.now() });
  }

  /** The app can no longer follow the process (its environment was disconnected). */
  lost(message: string): void {
    this.onEvent({ kind: 'failed', message });
  }

  /** Another client's process followed here: how it is shown and whether input may reach it. */
  watching(watched: WatchedProcess, startedAt = this.view.startedAt): void {
    this.update({ watched, startedAt });
  }

  /** Read-only: a watched process the user has not taken over. */
  get readOnly(): boolean {
    return this.view.watched !== undefined && !this.view.watched.control;
  }

  resized(size: { cols: number; rows: number }): void {
    this.update({ size });
  }

  /** Cumulative output bytes consumed downstream; forwarded to the server when it grows. */
  acknowledge(consumedBytes: number): void {
    if (consumedBytes <= this.serverAck || !this.handle) return;
    this.serverAck = consumedBytes;
    this.handle.acknowledge(consumedBytes);
  }

  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.handle?.dispose();
    this.log.release();
  }

  private onEvent(event: ProcessEvent): void {
    switch (event.kind) {
      case 'output':
        // The client's bytes, kept as they are: the one copy of this output in the app.
        // Each byte is read once, in order: a duplicate is dropped (by append as well), and so is
        // output the previous run had read already (a restart reads the retained output back).
        if (event.seq > this.lastDeliveredSeq) {
          if (this.history?.read(event.data, Date.now())) {
            const commands = this.history.commands;
            if (commands) this.update({ commands });
          }
          this.listener.printed?.(event.data);
        }
        this.append(
          { kind: 'output', seq: event.seq, stream: event.stream, data: event.data },
          event.data.byteLength,
        );
        return;
      case 'exited':
        this.append({ kind: 'exited', seq: event.seq, exitCode: event.exitCode }, 0);
        this.update({ state: 'exited', exitCode: event.exitCode, endedAt: Date.now() });
        return;
      case 'closed':
        this.append({ kind: 'closed', seq: event.seq }, 0);
        if (this.running) this.update({ state: 'exited', endedAt: Date.now() });
        return;
      case 'gap':
        this.append({ kind: 'gap', fromSeq: event.fromSeq, toSeq: event.toSeq, at: event.at }, 0);
        return;
      case 'failed':
        // Terminal and seq-less in the client; it takes the next seq so the renderer orders it last.
        this.append({ kind: 'failed', seq: this.log.lastSeq + 1, message: event.message }, 0);
        if (this.running) this.update({ state: 'lost', failure: event.message, endedAt: Date.now() });
        return;
    }
  }

  private append(event: ProcessEventView, bytes: number): void {
    if (lastSeqOf(event) <= this.log.lastSeq) return;
    this.log.append(event, bytes);
    this.listener.appended(bytes);
  }

  private update(patch: Partial<ProcessView>): void {
    this.view = { ...this.view, ...patch };
    this.listener.changed(this.snapshot);
  }
}

function titleOf(started: string[]): string {
  // A shell started after its profile's start commands is named after the shell, not the wrapper.
  const argv = shellOfArgv(started);
  const program = (argv[0] ?? '').split('/').pop() ?? '';
  const rest = argv.slice(1).join(' ');
  const title = rest && !(argv.length === 2 && argv[1] === '-l') ? `${program} ${rest}` : program;
  return title.length > 60 ? `${title.slice(0, 57)}…` : title;
}
