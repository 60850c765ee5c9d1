// processes.* of the contract: starting (a login shell, an argv or a shell line), input, resize,
// signals, restart and forget, and each renderer's replay and acknowledgements of output.
import { AppError, notFound } from '../app-error';
import type { NamespaceHandlers } from './command-handlers';
import type { EnvironmentRegistry } from '../environments/environment-registry';
import { homeOf } from '../files/file-service';
import type { ProcessFlow } from '../processes/process-flow';
import { shellLaunch } from '../processes/shell-launch';
import { EMPTY_TERMINAL_PROFILE, type Settings } from '../../../shared/ipc';
import { errorMessage } from '../../../shared/error-message';
import { TetherCapability } from '../../../shared/protocol';
import type { ExecServerClientApi } from '../../client/api';

export type ProcessHandlers = NamespaceHandlers<'processes'>;

export interface ProcessHandlerDeps {
  envs: EnvironmentRegistry;
  flow: ProcessFlow;
  settings: () => Settings;
}

const READ_ONLY =
  'Read-only: this process belongs to another client. Choose Take over to type into it, resize it or signal it.';

export function processHandlers({ envs, flow, settings }: ProcessHandlerDeps): ProcessHandlers {
  const liveHandle = (envId: string, processId: string) => {
    const runtime = envs.process(envId, processId);
    const handle = runtime.live;
    if (!handle) throw new AppError('conflict', 'The process has ended; restart it to run it again.');
    if (runtime.readOnly) throw new AppError('conflict', READ_ONLY);
    return handle;
  };
  /** Clients whose other sessions' changes already reach the renderers. */
  const watchedClients = new WeakSet<ExecServerClientApi>();
  const watchedRuntime = (envId: string, processId: string) => {
    const runtime = envs.process(envId, processId);
    const watched = runtime.snapshot.watched;
    if (!watched) throw new AppError('invalidInput', 'This process was started here, not by another client.');
    return { runtime, watched };
  };
  return {
    'processes.list': ({ envId }) => [...envs.get(envId).processes.values()].map((p) => p.snapshot),
    'processes.start': async (input) => {
      if (input.argv && input.shellLine) {
        throw new AppError('invalidInput', 'Give either argv or shellLine, not both.');
      }
      const env = envs.get(input.envId);
      const client = await env.connectedClient();
      const loginShell = client.environmentInfo?.shell?.path || null;
      const { home } = homeOf(client);
      const common = { tty: input.tty, ...(input.size ? { size: input.size } : {}) };
      if (!input.argv && !input.shellLine) {
        // "A new shell": the environment's terminal profile says what it starts as.
        const profile = env.stored.terminalProfile ?? EMPTY_TERMINAL_PROFILE;
        const workspaceFolder = env.stored.workspaceFolder ?? null;
        const { shellIntegration } = settings();
        const context = { loginShell, home, workspaceFolder, shellIntegration };
        const { argv, cwd, env: vars } = shellLaunch(profile, context, input);
        return flow.start(env, client, {
          argv,
          cwd,
          ...(Object.keys(vars).length ? { env: vars } : {}),
          ...common,
        });
      }
      const argv = input.argv ?? [loginShell || '/bin/sh', '-lc', input.shellLine ?? ''];
      return flow.start(env, client, {
        argv,
        cwd: input.cwd ?? home,
        ...(input.env ? { env: input.env } : {}),
        ...common,
      });
    },
    'processes.write': async ({ envId, processId, data }) => {
      const status = await liveHandle(envId, processId).write(data);
      if (status === 'stdinClosed') throw new AppError('conflict', 'This process no longer reads input.');
      if (status === 'unknownProcess') throw notFound('The process');
      return { ok: true };
    },
    'processes.closeStdin': async ({ envId, processId }) => {
      const status = await liveHandle(envId, processId).closeStdin();
      if (status === 'unknownProcess') throw notFound('The process');
      return { ok: true };
    },
    'processes.resize': async ({ envId, processId, cols, rows }) => {
      const runtime = envs.process(envId, processId);
      const handle = runtime.live;
      // A watcher's pane does not resize another client's terminal until it takes over.
      if (!runtime.resizable || !handle || runtime.readOnly) return { applied: false };
      try {
        await handle.resize({ cols, rows });
      } catch (error) {
        if ((error as { code?: unknown }).code === 'unsupported') return { applied: false };
        throw error;
      }
      runtime.resized({ cols, rows });
      return { applied: true };
    },
    // The handle knows which signals its server can send (and that terminate and kill fall back to
    // process/terminate where it has no extended signals).
    'processes.signal': async ({ envId, processId, signal }) => {
      await liveHandle(envId, processId).signal(signal);
      return { ok: true };
    },
    'processes.restart': async ({ envId, processId }) => {
      const env = envs.get(envId);
      const old = envs.process(envId, processId);
      await old.live?.terminate().catch(() => undefined);
      const client = await env.connectedClient();
      const size = old.snapshot.size;
      const { argv, cwd, env: vars, tty } = old.options;
      const fresh = await flow.start(env, client, {
        argv,
        cwd,
        tty,
        ...(vars ? { env: vars } : {}),
        ...(size ? { size } : {}),
      });
      // The new process takes the old one's place: one row per command, not one per restart.
      flow.drop(env, old);
      return fresh;
    },
    'processes.forget': ({ envId, processId }) => {
      const env = envs.get(envId);
      const runtime = envs.process(envId, processId);
      if (runtime.running)
        throw new AppError('conflict', 'The process is still running; terminate it first.');
      flow.drop(env, runtime);
      return { ok: true };
    },
    'processes.others': async ({ envId }) => {
      const client = await envs.get(envId).connectedClient();
      if (!client.hasCapability(TetherCapability.sessionProcesses)) {
        return {
          available: false,
          reason:
            "Not available on this server: it does not show other clients' processes (a codex exec-server has no such extension).",
          processes: [],
        };
      }
      if (!watchedClients.has(client)) {
        watchedClients.add(client);
        await client
          .watchSessions(() => flow.othersChanged(envId))
          .catch((error: unknown) => {
            watchedClients.delete(client);
            throw new AppError('remote', `Could not follow other clients' processes: ${errorMessage(error)}`);
          });
      }
      const sessions = await client.listSessions();
      return {
        available: true,
        reason: null,
        processes: sessions
          .filter((session) => !session.current)
          .flatMap((session) =>
            session.processes.map((p) => ({
              sessionId: session.sessionId,
              clientName: session.clientName,
              processId: p.processId,
              argv: p.argv,
              cwd: p.cwd,
              tty: p.tty,
              state: p.state,
              startedAt: p.startedAt,
              exitCode: p.exitCode,
            })),
          ),
      };
    },
    'processes.watch': async ({ envId, sessionId, processId }) => {
      const env = envs.get(envId);
      const client = await env.connectedClient();
      const session = (await client.listSessions()).find((s) => s.sessionId === sessionId && !s.current);
      const target = session?.processes.find((p) => p.processId === processId);
      if (!session || !target) throw notFound("The other client's process");
      return flow.watch(env, client, session, target);
    },
    'processes.takeOver': ({ envId, processId }) => {
      const { runtime, watched } = watchedRuntime(envId, processId);
      runtime.watching({ ...watched, control: true });
      return runtime.snapshot;
    },
    'processes.keep': async ({ envId, processId }) => {
      const { runtime, watched } = watchedRuntime(envId, processId);
      if (!runtime.running)
        throw new AppError('conflict', 'The process has ended; there is nothing to keep.');
      const client = await envs.get(envId).connectedClient();
      await client.keepProcess(processId);
      runtime.watching({ ...watched, control: true, kept: true });
      return runtime.snapshot;
    },
    'processes.replay': ({ envId, processId, afterSeq }, feed) => {
      const runtime = envs.process(envId, processId);
      return {
        ...feed.replay(envId, processId, runtime.log, afterSeq),
        shownThroughSeq: runtime.shownThroughSeq,
      };
    },
    'processes.ack': ({ envId, processId, deltaBytes, shownThroughSeq }, feed) => {
      const runtime = envs.process(envId, processId);
      if (shownThroughSeq !== undefined) runtime.shown(shownThroughSeq);
      feed.ack(envId, processId, deltaBytes);
      return { ok: true };
    },
  };
}
