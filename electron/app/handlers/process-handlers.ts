// processes.* of the contract: starting (a login shell, an argv or a shell line), input, resize,
// signals, restart and forget, and each renderer's replay and acknowledgements of output.
import { AppError, notFound } from '../app-error';
import type { NamespaceHandlers } from './command-handlers';
import type { EnvironmentRegistry } from '../environments/environment-registry';
import { homeOf } from '../files/file-service';
import type { ProcessFlow } from '../processes/process-flow';
import { shellLaunch } from '../processes/shell-launch';
import { EMPTY_TERMINAL_PROFILE, type Settings } from '../../../shared/ipc';

export type ProcessHandlers = NamespaceHandlers<'processes'>;

export interface ProcessHandlerDeps {
  envs: EnvironmentRegistry;
  flow: ProcessFlow;
  settings: () => Settings;
}

export function processHandlers({ envs, flow, settings }: ProcessHandlerDeps): ProcessHandlers {
  const liveHandle = (envId: string, processId: string) => {
    const handle = envs.process(envId, processId).live;
    if (!handle) throw new AppError('conflict', 'The process has ended; restart it to run it again.');
    return handle;
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
    'processes.write': async ({ envId, processId, data, base64 }) => {
      const status = await liveHandle(envId, processId).write(base64 ? Buffer.from(data, 'base64') : data);
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
      if (!runtime.resizable || !handle) return { applied: false };
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
