// environments.* of the contract: adding, reconfiguring, removing, connecting and testing
// environments, persisting each change, and what a change means for their running processes.
import { randomUUID } from 'node:crypto';
import type { EnvironmentDraft, EnvironmentKind, EnvironmentSettings } from '../../../shared/ipc';
import { AppError } from '../app-error';
import type { NamespaceHandlers } from './command-handlers';
import { LOCAL_ENVIRONMENT_ID, type StoredEnvironment } from '../persistence/config-store';
import { testConnection, type TestOptions } from '../environments/connection-test';
import { appKind, checkSettings } from '../environments/kinds';
import type { AppEnvironmentKind } from '../environments/kinds/app-kind';
import { SshConnectProgress } from '../ssh/ssh-connect-progress';
import type { SshConfigLocation } from '../ssh/ssh-hosts';
import type { SshPromptBroker } from '../ssh/ssh-prompts';
import type { EnvironmentRegistry } from '../environments/environment-registry';
import type { ClientFactory, EnvironmentRuntime } from '../environments/environment-runtime';
import type { EnvironmentTokens } from '../environments/environment-tokens';
import type { LocalServerCommand } from '../environments/local-server';
import type { ProcessFlow } from '../processes/process-flow';
import type { RendererFanout } from '../processes/renderer-fanout';
import { sameTokenOrigin, tokenBinding } from '../../../shared/token-origin';
import { transportFor } from '../environments/transport-spec';

export type EnvironmentHandlers = NamespaceHandlers<'environments'>;

export interface EnvironmentHandlerDeps {
  envs: EnvironmentRegistry;
  flow: ProcessFlow;
  renderers: RendererFanout;
  tokens: EnvironmentTokens;
  /** Writes the config file (environments and settings). */
  save(): Promise<void>;
  newRuntime(stored: StoredEnvironment, hasToken: boolean): EnvironmentRuntime;
  createClient: ClientFactory;
  localServer: LocalServerCommand;
  sshConfig: SshConfigLocation;
  prompts: SshPromptBroker;
  /** An environment is being removed: what else it owns (its port forwards) goes with it. */
  environmentRemoved(id: string): Promise<void>;
}

export function environmentHandlers(deps: EnvironmentHandlerDeps): EnvironmentHandlers {
  const { envs, flow, tokens, save } = deps;
  return {
    'environments.list': () => envs.all().map((e) => e.view),
    'environments.add': async (draft) => {
      if (!appKind(draft.settings.kind).userAdded) {
        throw new AppError(
          'invalidInput',
          'There is exactly one Local environment; add an SSH, WebSocket or Command one.',
        );
      }
      const settings = checkSettings(draft.settings);
      const stored: StoredEnvironment = {
        id: randomUUID(),
        name: draft.name,
        color: draft.color,
        settings,
        enabled: true,
        ...(draft.terminalProfile ? { terminalProfile: draft.terminalProfile } : {}),
      };
      if (draft.token) await tokens.set(stored.id, draft.token);
      const env = deps.newRuntime(stored, Boolean(draft.token));
      envs.add(env);
      await save();
      env.emitNow();
      void env.connect();
      return env.view;
    },
    'environments.update': async ({ id, draft }) => {
      const env = envs.get(id);
      if (appKind(draft.settings.kind).userAdded === (id === LOCAL_ENVIRONMENT_ID)) {
        throw new AppError('invalidInput', 'An environment cannot change to or from the Local kind.');
      }
      const settings = checkSettings(draft.settings);
      checkTokenStaysWithOrigin(env, draft);
      const reconnect =
        JSON.stringify(settings) !== JSON.stringify(env.stored.settings) || draft.token !== undefined;
      await applyToken(tokens, env, draft);
      // A new profile applies to shells started from now on; running ones keep what they began with.
      env.stored = {
        ...env.stored,
        name: draft.name,
        color: draft.color,
        settings,
        ...(draft.terminalProfile ? { terminalProfile: draft.terminalProfile } : {}),
      };
      await save();
      if (reconnect && env.currentClient) {
        await env.disconnect();
        flow.markLost(env, 'The environment was reconfigured; this process can no longer be followed.');
        if (env.stored.enabled) void env.connect();
      }
      env.emitNow();
      return env.view;
    },
    'environments.setWorkspaceFolder': async ({ id, path }) => {
      const env = envs.get(id);
      if (path === null) {
        const { workspaceFolder: _closed, ...rest } = env.stored;
        env.stored = rest;
      } else {
        const fs = await envs.connectedFs(id);
        const folder = await fs.canonicalize(path);
        if (!(await fs.getMetadata(folder)).isDirectory)
          throw new AppError('invalidInput', `${path} is not a folder; open a folder as the workspace.`);
        env.stored = { ...env.stored, workspaceFolder: folder };
      }
      await save();
      env.emitNow();
      return env.view;
    },
    'environments.remove': async ({ id, terminateProcesses }) => {
      const env = envs.get(id);
      if (id === LOCAL_ENVIRONMENT_ID)
        throw new AppError('conflict', 'The Local environment cannot be removed.');
      if (terminateProcesses) {
        await Promise.all([...env.processes.values()].map((p) => p.live?.terminate().catch(() => undefined)));
      }
      await deps.environmentRemoved(id);
      env.dispose();
      await env.disconnect();
      for (const p of env.processes.values()) flow.drop(env, p);
      envs.delete(id);
      await tokens.delete(id);
      await save();
      deps.renderers.broadcast('environments.removed', { id });
      return { ok: true };
    },
    'environments.connect': async ({ id }) => {
      const env = envs.get(id);
      if (!env.stored.enabled) {
        env.stored = { ...env.stored, enabled: true };
        await save();
      }
      await env.connect();
      return { ok: true };
    },
    'environments.disconnect': async ({ id }) => {
      await disconnectEnvironment(envs.get(id), { save, flow });
      return { ok: true };
    },
    'environments.reconnectNow': ({ id }) => {
      envs.reconnect(envs.get(id));
      return { ok: true };
    },
    'environments.reconnectAll': () => {
      envs.reconnectAll();
      return { ok: true };
    },
    'environments.networkMayBeBack': () => {
      envs.networkMayBeBack();
      return { ok: true };
    },
    'environments.test': async ({ settings, token, id, name, testId }) => {
      const checked = checkSettings(settings);
      const kind = appKind(checked.kind);
      if (kind.bootstrapsHost) {
        const spec = transportFor(checked, null, deps.localServer, deps.sshConfig);
        return testWithProgress(deps, kind, spec, name, testId ?? randomUUID());
      }
      const saved = (token == null && id ? envs.find(id) : undefined) ?? null;
      // The saved token goes only to the origin and certificate anchor it was saved for; another is tested without it.
      const withheld = saved !== null && saved.hasToken && !sameTokenOrigin(saved.stored.settings, checked);
      const secret = token ?? (saved && !withheld ? await tokens.get(saved.id) : null);
      const spec = transportFor(checked, secret, deps.localServer, deps.sshConfig);
      const result = await testConnection(spec, deps.createClient, testOptionsOf(kind));
      if (withheld && result.stage === 'auth') {
        return { ...result, message: `${result.message} ${withheldTokenHint(saved.stored.settings)}` };
      }
      return result;
    },
  };
}

/** Disconnects `env` and keeps it so (no reconnect until the user connects it again). */
export async function disconnectEnvironment(
  env: EnvironmentRuntime,
  { save, flow }: Pick<EnvironmentHandlerDeps, 'save' | 'flow'>,
): Promise<void> {
  env.stored = { ...env.stored, enabled: false };
  await save();
  await env.disconnect();
  flow.markLost(
    env,
    'Disconnected; reconnecting starts a new session, so this process can no longer be followed.',
  );
}

/** The kind's part of a test: its preflight and time limit. */
function testOptionsOf(kind: AppEnvironmentKind<EnvironmentKind>): TestOptions {
  return {
    ...(kind.preflight ? { preflight: kind.preflight.bind(kind) } : {}),
    ...(kind.testTimeoutMs !== undefined ? { timeoutMs: kind.testTimeoutMs } : {}),
  };
}

/**
 * *Test connection* of a kind that bootstraps a host (SSH): the same stages as a connect, shown
 * live (ssh.testProgress), with its prompts in the app under the dialog's name. A test that ends
 * leaves no question behind.
 */
async function testWithProgress(
  deps: EnvironmentHandlerDeps,
  kind: AppEnvironmentKind<EnvironmentKind>,
  spec: Parameters<typeof testConnection>[0],
  name: string | undefined,
  testId: string,
) {
  const asker = { key: `test:${testId}`, envId: null, envName: name?.trim() || 'New environment' };
  const progress = new SshConnectProgress(() =>
    deps.renderers.broadcast('ssh.testProgress', { testId, progress: progress.view }),
  );
  try {
    const result = await testConnection(spec, deps.createClient, {
      ...testOptionsOf(kind),
      ssh: {
        prompt: (prompt) => deps.prompts.ask(asker, prompt),
        onStage: (event) => progress.onStage(event),
        onLog: (line) => progress.onLog(line),
      },
      onState: (state) => progress.linkChanged(state),
    });
    if (!result.ok && progress.view.failure === null) progress.failed(result.message);
    return { ...result, ssh: progress.view };
  } finally {
    deps.prompts.cancelAsker(asker.key);
  }
}

/** A draft's token: absent keeps the stored one, null or empty clears it, a string replaces it. */
async function applyToken(
  tokens: EnvironmentTokens,
  env: EnvironmentRuntime,
  draft: EnvironmentDraft,
): Promise<void> {
  if (draft.token === undefined) return;
  if (draft.token === null || draft.token === '') {
    await tokens.delete(env.id);
    env.hasToken = false;
  } else {
    await tokens.set(env.id, draft.token);
    env.hasToken = true;
  }
}

/** Why the saved token was not sent, and what to do: it stays with the URL it was saved for. */
function withheldTokenHint(saved: EnvironmentSettings): string {
  return `The saved token was not sent: it belongs to ${tokenBinding(saved) ?? 'the saved URL'}. Enter the token again for this URL.`;
}

/**
 * An edit that points a ws environment at another origin must say what happens to its token
 * (a new one, or null to clear it): keeping it would send the saved secret to a different host.
 */
function checkTokenStaysWithOrigin(env: EnvironmentRuntime, draft: EnvironmentDraft): void {
  if (draft.token !== undefined || !env.hasToken || !appKind(draft.settings.kind).usesToken) return;
  if (sameTokenOrigin(env.stored.settings, draft.settings)) return;
  throw new AppError(
    'invalidInput',
    `The URL now points to ${tokenBinding(draft.settings) ?? 'another server'}, but the saved token belongs to ${tokenBinding(env.stored.settings) ?? 'the old URL'}. Enter the token again for the new URL.`,
  );
}
