// A logical exec-server session: its process table, the processes of other sessions it attached
// to, the connection it is attached to (if any), and the detach timer that kills everything it owns
// when no client resumes it in time. The registry shows a session only to its own principal.
import { randomUUID } from 'node:crypto';
import {
  grantedOutputWindow,
  Notification,
  type ProcessStartParams,
  type ProcessStartResult,
  type ProcessSummary,
  type SessionSummary,
} from '../../../shared/protocol';
import type { Principal } from '../listeners/principal';
import { spawnChild } from './child-spawn';
import { buildChildEnv } from './env-policy';
import { ATTACHED_PROBE_TIMEOUT_MS, DEFAULT_TTY_COLS, DEFAULT_TTY_ROWS, readBounds } from '../limits';
import { ManagedProcess, type ProcessLimits } from './managed-process';
import { dropOutbound, type OutboundMessage } from '../rpc/outbound';
import { UNGUARDED, type ProcessGroupGuard } from './orphan-watchdog';
import { uriToPath } from '../fs/path-uri';
import { RpcError } from '../rpc/rpc-error';

/** Where an attached session's notifications go: the live connection. */
export interface SessionSink {
  send(message: OutboundMessage): void;
  readonly congested: boolean;
  probeAlive(timeoutMs: number): Promise<boolean>;
  /** Whether the client behind the connection is there to read what closed (see reapIfSeen). */
  probeReading(timeoutMs: number): Promise<boolean>;
  evict(reason: string): void;
}

export interface SessionConfig extends ProcessLimits {
  sessionTtlMs: number;
  exitedProcessTtlMs: number;
  /** Sessions held at once (see DEFAULT_MAX_SESSIONS). */
  maxSessions: number;
  /** Processes of one session not yet closed. */
  maxProcessesPerSession: number;
  /**
   * The environment processes inherit from, when not the server's own: the SSH daemon's adds the
   * forwarded agent of a live session (daemon/agent-link.ts).
   */
  childBaseEnv?: () => NodeJS.ProcessEnv;
}

/** What the registry hears from its sessions. */
interface SessionEvents {
  expired(session: Session): void;
  /** A process of `session` started, exited or closed. */
  processChanged(session: Session, process: ManagedProcess): void;
}

export class Session {
  readonly id = randomUUID();
  /** `clientName` of the latest `initialize` that created or resumed it. */
  clientName = '';
  /** Wants `session/processChanged` for the other sessions of its principal. */
  subscribed = false;
  private readonly processes = new Map<string, ManagedProcess>();
  /** Processes of other sessions this one follows (process/attach), by the id it chose. */
  private readonly attached = new Map<string, ManagedProcess>();
  private readonly starting = new Set<string>();
  private sink: SessionSink | null = null;
  private ttlTimer: NodeJS.Timeout | null = null;
  /**
   * Closed processes waiting to be reaped: the timer of their next check, or null while they wait
   * for a resume (their check came while detached). Every attach starts their TTL over.
   */
  private readonly reaps = new Map<ManagedProcess, NodeJS.Timeout | null>();
  private disposed = false;

  constructor(
    private readonly config: SessionConfig,
    private readonly events: SessionEvents,
    readonly principal: Principal,
    private readonly groups: ProcessGroupGuard = UNGUARDED,
  ) {}

  get isAttached(): boolean {
    return this.sink !== null;
  }

  attach(sink: SessionSink): void {
    if (this.ttlTimer) clearTimeout(this.ttlTimer);
    this.ttlTimer = null;
    this.sink = sink;
    this.setCongested(sink.congested);
    // A resumed client has yet to read what closed while it was away: a full TTL from now.
    for (const closed of [...this.reaps.keys()]) this.scheduleReap(closed);
  }

  /**
   * Before a resume is refused as "already attached": asks the attached connection to prove it is
   * alive; a silent one is dropped (detaching it). Resolves true when the session is free.
   */
  async releaseIfUnresponsive(timeoutMs: number): Promise<boolean> {
    const sink = this.sink;
    if (sink === null) return true;
    if (await sink.probeAlive(timeoutMs)) return false;
    if (this.sink === sink)
      sink.evict(`session ${this.id} resumed elsewhere; this connection did not answer a ping`);
    return this.sink === null;
  }

  /** Ended (session/end) or expired: it serves nothing any more. */
  get ended(): boolean {
    return this.disposed;
  }

  detach(sink: SessionSink): void {
    if (this.sink !== sink) return;
    this.sink = null;
    // An ended session has no TTL left to wait out.
    if (this.disposed) return;
    this.setCongested(false);
    this.ttlTimer = setTimeout(() => {
      this.dispose();
      this.events.expired(this);
    }, this.config.sessionTtlMs);
    this.ttlTimer.unref();
  }

  setCongested(congested: boolean): void {
    for (const process of this.processes.values()) process.setCongested(congested);
  }

  /** Where this session's notifications go (dropped while detached). */
  readonly emit = (message: OutboundMessage): void => {
    if (this.sink) this.sink.send(message);
    else dropOutbound(message);
  };

  async start(params: ProcessStartParams): Promise<ProcessStartResult> {
    if (params.argv.length === 0) throw RpcError.invalidParams('argv must not be empty');
    const cwd = uriToPath(params.cwd);
    const id = params.processId;
    if (this.processes.has(id) || this.starting.has(id)) {
      throw RpcError.invalidRequest(`process ${id} already exists`);
    }
    const max = this.config.maxProcessesPerSession;
    if (this.runningCount() >= max) {
      throw RpcError.limitExceeded(
        'processesPerSession',
        max,
        `this session already has ${max} processes that have not finished (the limit, ` +
          '--max-processes-per-session); wait for some to end or terminate them before starting more',
      );
    }
    const env = buildChildEnv(this.config.childBaseEnv?.() ?? process.env, params.env, params.envPolicy);
    const window = params.outputWindowBytes == null ? null : grantedOutputWindow(params.outputWindowBytes);
    const managed = new ManagedProcess(id, params.tty, this.config, window, this.emit, this.closedHere, {
      argv: params.argv,
      cwd,
    });
    this.starting.add(id);
    try {
      const io = await spawnChild(
        {
          argv: params.argv,
          arg0: params.arg0 ?? null,
          cwd,
          env,
          tty: params.tty,
          pipeStdin: params.pipeStdin ?? false,
          bounds: readBounds(window, managed.retentionBytes),
          size: params.size ?? { cols: DEFAULT_TTY_COLS, rows: DEFAULT_TTY_ROWS },
          searchPath: process.env.PATH ?? '',
        },
        {
          data: (stream, chunk, lease) => managed.onData(stream, chunk, lease),
          streamEnd: () => managed.onStreamEnd(),
          exit: (code) => {
            managed.onExit(code);
            this.events.processChanged(this, managed);
          },
        },
      );
      managed.bind(io);
      this.groups.track(io.pid);
    } finally {
      this.starting.delete(id);
    }
    this.processes.set(id, managed);
    if (this.disposed) managed.killGroup();
    else managed.setCongested(this.sink?.congested ?? false);
    this.events.processChanged(this, managed);
    return { processId: id, sandboxType: 'none', pid: managed.pid };
  }

  /** The owner's reaction to one of its processes closing: reaped later, and others told. */
  private readonly closedHere = (closed: ManagedProcess): void => {
    this.scheduleReap(closed);
    this.events.processChanged(this, closed);
  };

  /** This session as `session/list` shows it to a connection whose session is `asker`. */
  summary(asker: Session | null): SessionSummary {
    return {
      sessionId: this.id,
      clientName: this.clientName,
      attached: this.sink !== null,
      current: asker === this,
      processes: [...this.processes.values()].map(summarize),
    };
  }

  /** Follows `managed` (a process of another session) as `attachId` from now on. */
  attachTo(managed: ManagedProcess, attachId: string): void {
    if (this.processes.has(attachId) || this.attached.has(attachId) || this.starting.has(attachId))
      throw RpcError.invalidRequest(`process ${attachId} already exists`);
    if (this.processes.get(managed.id) === managed)
      throw RpcError.invalidRequest(`process ${managed.id} belongs to this session already`);
    this.attached.set(attachId, managed);
    managed.addWatcher(this, { id: attachId, emit: this.emit });
  }

  /** Stops following an attached process (process/detach); its owner is not affected. */
  detachFrom(attachId: string): void {
    const managed = this.attached.get(attachId);
    if (!managed) throw RpcError.unknownProcess(attachId);
    this.attached.delete(attachId);
    managed.removeWatcher(this);
  }

  /** Whose process `attachId` is: the owner session holds it under `managed.id`. */
  attachedProcess(attachId: string): ManagedProcess {
    const managed = this.attached.get(attachId);
    if (!managed) throw RpcError.invalidRequest(`process ${attachId} is not attached from another session`);
    return managed;
  }

  /**
   * process/keep: the attached process `attachId` moves from `owner` into this session, which
   * then decides its life; the former owner follows it on under its old id.
   */
  adopt(attachId: string, owner: Session): void {
    const managed = this.attachedProcess(attachId);
    const ownId = managed.id;
    owner.release(managed);
    this.attached.delete(attachId);
    managed.removeWatcher(this);
    managed.transferTo(attachId, this.emit, this.closedHere);
    this.processes.set(attachId, managed);
    managed.setCongested(this.sink?.congested ?? false);
    if (managed.isClosed) this.scheduleReap(managed);
    if (!owner.disposed) {
      owner.attached.set(ownId, managed);
      managed.addWatcher(owner, { id: ownId, emit: owner.emit });
    }
  }

  /** Hands one process over to another session: no longer killed or reaped with this one. */
  private release(managed: ManagedProcess): void {
    this.processes.delete(managed.id);
    const timer = this.reaps.get(managed);
    if (timer) clearTimeout(timer);
    this.reaps.delete(managed);
  }

  /** Whether `managed` is one of this session's own processes. */
  owns(managed: ManagedProcess): boolean {
    return this.processes.get(managed.id) === managed;
  }

  /** The process with this id (its own or an attached one), or -32600 as codex reports unknown and starting ids. */
  process(id: string): ManagedProcess {
    const found = this.processes.get(id) ?? this.attached.get(id);
    if (found) return found;
    if (this.starting.has(id)) throw RpcError.invalidRequest(`process id ${id} is starting`);
    throw RpcError.unknownProcess(id);
  }

  /** Processes started or starting that have not closed. */
  runningCount(): number {
    let running = this.starting.size;
    for (const managed of this.processes.values()) if (!managed.isClosed) running++;
    return running;
  }

  /** Detached, and nothing left to wait for: only finished output would be lost with it. */
  get idle(): boolean {
    return this.sink === null && this.runningCount() === 0;
  }

  /** Its own process or an attached one. */
  find(id: string): ManagedProcess | undefined {
    return this.processes.get(id) ?? this.attached.get(id);
  }

  /** Only its own: flow-control acks of a watcher must not open its owner's window. */
  findOwn(id: string): ManagedProcess | undefined {
    return this.processes.get(id);
  }

  isStarting(id: string): boolean {
    return this.starting.has(id);
  }

  private scheduleReap(closed: ManagedProcess): void {
    const pending = this.reaps.get(closed);
    if (pending) clearTimeout(pending);
    const timer = setTimeout(() => void this.reapIfSeen(closed), this.config.exitedProcessTtlMs);
    timer.unref();
    this.reaps.set(closed, timer);
  }

  /**
   * Drops a closed process once the exited-process TTL has passed with its client attached and
   * answering. A client that is away has not read the process's end yet: detached (an outage), it
   * is reaped a TTL after the resume; attached but silent (a suspended laptop), it is asked again a
   * TTL later. Either way the wait ends with the client's connection: once that is gone, the
   * session's own TTL bounds it.
   */
  private async reapIfSeen(closed: ManagedProcess): Promise<void> {
    const timer = this.reaps.get(closed);
    if (this.processes.get(closed.id) !== closed) {
      this.reaps.delete(closed);
      return;
    }
    const sink = this.sink;
    if (sink === null) {
      this.reaps.set(closed, null);
      return;
    }
    const alive = await sink.probeReading(ATTACHED_PROBE_TIMEOUT_MS);
    // An attach meanwhile started the TTL over: that newer check decides.
    if (this.reaps.get(closed) !== timer) return;
    if (!alive) {
      this.scheduleReap(closed);
      return;
    }
    this.reaps.delete(closed);
    if (this.processes.get(closed.id) !== closed) return;
    this.processes.delete(closed.id);
    // Until now a shutdown would still have killed its group (stray background children).
    this.groups.untrack(closed.pid);
  }

  /** Kills every process group of this session; the session is unusable afterwards. */
  dispose(): void {
    this.disposed = true;
    if (this.ttlTimer) clearTimeout(this.ttlTimer);
    this.ttlTimer = null;
    for (const timer of this.reaps.values()) if (timer) clearTimeout(timer);
    this.reaps.clear();
    for (const managed of this.processes.values()) managed.killGroup();
    for (const managed of this.attached.values()) managed.removeWatcher(this);
    this.attached.clear();
  }
}

function summarize(managed: ManagedProcess): ProcessSummary {
  return {
    processId: managed.id,
    argv: managed.launch.argv,
    cwd: managed.launch.cwd,
    tty: managed.tty,
    state: managed.state,
    startedAt: managed.startedAt,
    exitCode: managed.exitStatus,
    pid: managed.pid,
  };
}

export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();

  /** `onExpired` runs after an expired session left the registry (the daemon's idle exit counts them). */
  constructor(
    private readonly config: SessionConfig,
    private readonly groups: ProcessGroupGuard = UNGUARDED,
    private readonly onExpired: () => void = () => {},
  ) {}

  private readonly events: SessionEvents = {
    expired: (expired) => {
      this.sessions.delete(expired.id);
      this.onExpired();
    },
    processChanged: (session, managed) => this.announce(session, managed),
  };

  /**
   * A new session of `principal`; at the cap the oldest idle one makes room, or a limitExceeded
   * error is thrown.
   */
  create(principal: Principal): Session {
    if (this.sessions.size >= this.config.maxSessions) this.evictOldestIdle();
    const session = new Session(this.config, this.events, principal, this.groups);
    this.sessions.set(session.id, session);
    return session;
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * The one visibility rule: a session exists, for resuming, listing and attaching, only for
   * connections of the principal that created it. Anyone else gets what an unknown id gets.
   */
  get(id: string, principal: Principal): Session | undefined {
    const session = this.sessions.get(id);
    return session?.principal === principal ? session : undefined;
  }

  /** Every session of `principal`, oldest first. */
  sessionsOf(principal: Principal): Session[] {
    return [...this.sessions.values()].filter((session) => session.principal === principal);
  }

  /** The session that owns `managed`, among `principal`'s. */
  ownerOf(managed: ManagedProcess, principal: Principal): Session | undefined {
    return this.sessionsOf(principal).find((session) => session.owns(managed));
  }

  /** Tells the subscribed sessions of the same principal, other than its own, of a process's change. */
  private announce(session: Session, managed: ManagedProcess): void {
    let text: string | null = null;
    for (const other of this.sessionsOf(session.principal)) {
      if (other === session || !other.subscribed) continue;
      text ??= JSON.stringify({
        method: Notification.sessionProcessChanged,
        params: {
          sessionId: session.id,
          clientName: session.clientName,
          processId: managed.id,
          state: managed.state,
        },
      });
      other.emit(text);
    }
  }

  /** Forgets `session` now, at its client's word (session/end): its processes are killed. */
  end(session: Session): void {
    if (this.sessions.get(session.id) !== session) return;
    this.sessions.delete(session.id);
    session.dispose();
  }

  private evictOldestIdle(): void {
    // Map order is creation order, so the first idle one is the oldest.
    for (const session of this.sessions.values()) {
      if (!session.idle) continue;
      session.dispose();
      this.sessions.delete(session.id);
      return;
    }
    const max = this.config.maxSessions;
    throw RpcError.limitExceeded(
      'sessions',
      max,
      `this server already holds ${max} sessions, each attached or with processes still running ` +
        '(the limit, --max-sessions); resume one of yours with resumeSessionId, or end some processes',
    );
  }

  disposeAll(): void {
    for (const session of this.sessions.values()) session.dispose();
    this.sessions.clear();
  }
}
