// Carries remote sessions across an app restart. While the app runs it keeps the saved-sessions
// file in step with the environments (session id, running processes, last seq; throttled, and once
// more at quit); at start it restores those processes and re-attaches them once their environment
// has resumed its session, or says in each one why it cannot.
import type { ConnectionState, TransportSpec } from '../../client/api';
import type { EnvironmentSettings } from '../../../shared/ipc';
import { whyLinkCannotResume } from '../../client/transports/transport';
import type { EnvironmentRegistry } from './environment-registry';
import type { EnvironmentRuntime } from './environment-runtime';
import { MAX_SAVED_PROCESSES_PER_ENVIRONMENT, SAVED_SESSIONS_INTERVAL_MS } from '../limits';
import type { ProcessFlow } from '../processes/process-flow';
import type { ProcessRuntime } from '../processes/process-runtime';
import { SavedProcess, type SavedSession, type SavedSessions } from '../persistence/saved-sessions';
import { errorMessage } from '../../../shared/error-message';

export class SessionKeeper {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly file: SavedSessions,
    private readonly envs: EnvironmentRegistry,
    private readonly flow: ProcessFlow,
    /** What an environment's settings connect with (without its token). */
    private readonly specOf: TransportSpecOf,
    /** A save failed (e.g. the disk is full): the user should know a restart may lose the panes. */
    private readonly saveFailed: (message: string) => void,
  ) {}

  /** Before any environment connects: brings back the processes saved by the previous run. */
  restore(saved: Map<string, SavedSession>): void {
    for (const [envId, session] of saved) {
      const env = this.envs.find(envId);
      if (!env || !env.stored.enabled || !this.outlivesApp(env)) continue;
      env.resumeSessionId = session.sessionId;
      for (const process of session.processes) this.flow.restore(env, process);
    }
  }

  /** An environment's link changed: re-attach its restored processes, or end them with the reason. */
  linkChanged(env: EnvironmentRuntime, state: ConnectionState): void {
    if (state.kind === 'connected') {
      const client = env.currentClient;
      for (const runtime of this.awaitingReattach(env)) if (client) void this.flow.reattach(client, runtime);
    } else if (state.kind === 'failed') {
      const why =
        state.code === 'unknownSession'
          ? 'The server no longer has the session this process ran in (it expired, or the server ' +
            'restarted, while Tether was closed); the server ended the process with it.'
          : `Could not resume the session this process ran in: ${state.reason}`;
      for (const runtime of this.awaitingReattach(env)) runtime.lost(why);
    }
    this.changed();
  }

  /** Something a restart restores changed: saved within SAVED_SESSIONS_INTERVAL_MS. */
  changed(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.save();
    }, SAVED_SESSIONS_INTERVAL_MS);
  }

  /** At quit, before the clients close (which ends what the app follows): saves, then stops. */
  async saveAndStop(): Promise<void> {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.save();
    this.stopped = true;
  }

  private async save(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.file.save(this.snapshot());
    } catch (error) {
      this.saveFailed(
        `Tether could not save its sessions to ${this.file.file} (${errorMessage(error)}); ` +
          'after a restart, the panes of remote processes may not come back.',
      );
    }
  }

  /** Every environment whose session outlives the app, with the processes still running in it. */
  private snapshot(): Map<string, SavedSession> {
    const sessions = new Map<string, SavedSession>();
    for (const env of this.envs.all()) {
      if (!this.outlivesApp(env)) continue;
      const sessionId = env.currentClient?.currentSessionId ?? env.resumeSessionId;
      if (!sessionId) continue;
      const running = [...env.processes.values()].filter((p) => p.running);
      const newest = running
        .sort((a, b) => b.snapshot.startedAt - a.snapshot.startedAt)
        .slice(0, MAX_SAVED_PROCESSES_PER_ENVIRONMENT);
      // One process beyond the file's bounds (a huge argv) is left out, not the whole file.
      const fitting = newest.map(savedProcess).filter((p) => SavedProcess.safeParse(p).success);
      sessions.set(env.id, { sessionId, processes: fitting });
    }
    return sessions;
  }

  private outlivesApp(env: EnvironmentRuntime): boolean {
    return sessionOutlivesApp(env, this.specOf);
  }

  private awaitingReattach(env: EnvironmentRuntime): ProcessRuntime[] {
    return [...env.processes.values()].filter((p) => p.takeReattach());
  }
}

/**
 * Whether an environment's session (and its processes) lives on when the app quits: one reached
 * over a link a new app can open again, not the Local server or a command's server, children of
 * the app that end with it.
 */
export function sessionOutlivesApp(env: EnvironmentRuntime, specOf: TransportSpecOf): boolean {
  return whyLinkCannotResume(specOf(env.stored.settings)) === null;
}

export type TransportSpecOf = (settings: EnvironmentSettings) => TransportSpec;

function savedProcess(runtime: ProcessRuntime): SavedProcess {
  const view = runtime.snapshot;
  const { options } = runtime;
  return {
    processId: runtime.processId,
    argv: options.argv,
    cwd: options.cwd,
    ...(options.env ? { env: options.env } : {}),
    tty: options.tty,
    size: view.size,
    flowControl: options.outputWindowBytes !== undefined,
    resizable: runtime.resizable,
    pid: view.pid,
    startedAt: view.startedAt,
    lastSeq: runtime.lastDeliveredSeq,
  };
}
