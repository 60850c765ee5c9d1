// Carries the processes across an app restart. While the app runs it keeps the saved-sessions file
// in step with the environments (session id, processes, last seq, how ended ones ended; throttled,
// and once more at quit); at start it restores those processes, re-attaches the running ones once
// their environment has resumed its session (or says in each one why it cannot), and shows the
// ended ones as they ended.
import type { ConnectionState, TransportSpec } from '../../client/api';
import type { EnvironmentSettings } from '../../../shared/ipc';
import { whyLinkCannotResume } from '../../client/transports/transport';
import type { EnvironmentRegistry } from './environment-registry';
import type { EnvironmentRuntime } from './environment-runtime';
import { MAX_SAVED_PROCESSES_PER_ENVIRONMENT, SAVED_SESSIONS_INTERVAL_MS } from '../limits';
import type { ProcessFlow } from '../processes/process-flow';
import type { ProcessRuntime } from '../processes/process-runtime';
import {
  SavedProcess,
  type SavedEnding,
  type SavedSession,
  type SavedSessions,
} from '../persistence/saved-sessions';
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

  /**
   * Before any environment connects: brings back the processes saved by the previous run. Those
   * still running in a session that outlives the app are followed again once it resumes; the rest
   * come back ended, so their panes stay and say how.
   */
  restore(saved: Map<string, SavedSession>): void {
    for (const [envId, session] of saved) {
      const env = this.envs.find(envId);
      if (!env || !env.stored.enabled) continue;
      const resumable = session.sessionId !== null && this.outlivesApp(env);
      if (resumable) env.resumeSessionId = session.sessionId;
      for (const process of session.processes)
        this.flow.restore(env, process, process.ended ?? (resumable ? undefined : endedWithApp()));
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
          ? 'Session lost: the server no longer had the session this process ran in (it expired, or ' +
            'the server restarted, while Tether was closed); the server ended the process with it.'
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

  /**
   * Every environment with processes, each with its newest ones, ended ones too (their panes come
   * back); the session id only where the session outlives the app.
   */
  private snapshot(): Map<string, SavedSession> {
    const sessions = new Map<string, SavedSession>();
    for (const env of this.envs.all()) {
      const sessionId = this.outlivesApp(env)
        ? (env.currentClient?.currentSessionId ?? env.resumeSessionId ?? null)
        : null;
      if (sessionId === null && env.processes.size === 0) continue;
      const newest = [...env.processes.values()]
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

/** A process that was running when an app whose session ends with it quit. */
function endedWithApp(): SavedEnding {
  return {
    state: 'lost',
    exitCode: null,
    failure:
      "It ended when Tether quit: this environment's server runs as part of the app, so its processes end with it.",
    endedAt: null,
  };
}

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
    ...(view.watched ? { watched: view.watched } : {}),
    ...(view.commands ? { commands: view.commands } : {}),
    ...(view.state === 'exited' || view.state === 'failed' || view.state === 'lost'
      ? {
          ended: {
            state: view.state,
            exitCode: view.exitCode,
            failure: view.failure,
            endedAt: view.endedAt,
          },
        }
      : {}),
  };
}
