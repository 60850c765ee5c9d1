// ssh.* of the contract: the host picker's list, adding a Host entry to the user's ssh config,
// answering ssh's prompts, an SSH environment's connect log for *Show log*, and removing Tether
// from an environment's host.
import type { SshUninstallReport } from '../../../shared/ipc';
import type { TransportSpec } from '../../client/api';
import { transportKind } from '../../client/transports/kinds';
import { AppError } from '../app-error';
import type { NamespaceHandlers } from './command-handlers';
import type { EnvironmentRegistry } from '../environments/environment-registry';
import type { EnvironmentRuntime } from '../environments/environment-runtime';
import type { ProcessFlow } from '../processes/process-flow';
import { appendSshHostEntry, planSshHostEntry } from '../ssh/ssh-config-append';
import { listSshHosts, type SshConfigLocation } from '../ssh/ssh-hosts';
import type { SshPromptBroker } from '../ssh/ssh-prompts';
import { disconnectEnvironment } from './environment-handlers';

export type SshHandlers = NamespaceHandlers<'ssh'>;

export interface SshHandlerDeps {
  envs: EnvironmentRegistry;
  flow: ProcessFlow;
  prompts: SshPromptBroker;
  sshConfig: SshConfigLocation;
  /** Writes the config file (environments and settings). */
  save(): Promise<void>;
  /** What an environment's settings connect with. */
  specOf(env: EnvironmentRuntime): TransportSpec;
}

export function sshHandlers(deps: SshHandlerDeps): SshHandlers {
  const { envs, prompts, sshConfig } = deps;
  return {
    'ssh.hosts': () => listSshHosts(sshConfig),
    'ssh.planHostEntry': async (draft) => ({
      file: sshConfig.file,
      ...(await planSshHostEntry(sshConfig.file, draft)),
    }),
    'ssh.addHostEntry': async (draft) => ({
      file: sshConfig.file,
      ...(await appendSshHostEntry(sshConfig.file, draft)),
    }),
    'ssh.prompts': () => prompts.open(),
    'ssh.answerPrompt': ({ id, answer }) => {
      prompts.answer(id, answer);
      return { ok: true };
    },
    'ssh.connectLog': ({ envId }) => ({ lines: envs.get(envId).sshConnectLog }),
    'ssh.uninstall': ({ envId }) => uninstall(deps, envs.get(envId)),
  };
}

/**
 * Disconnects the environment first (its reconnect would install again, and the daemon it is
 * attached to is about to stop), then removes Tether over a connection of its own, whose
 * questions are asked under the environment's name.
 */
async function uninstall(deps: SshHandlerDeps, env: EnvironmentRuntime): Promise<SshUninstallReport> {
  const spec = deps.specOf(env);
  const remove = transportKind(spec.kind).uninstall;
  if (!remove) {
    throw new AppError(
      'invalidInput',
      `${env.stored.name} is not an environment Tether installs itself in (SSH, container, exec prefix).`,
    );
  }
  await disconnectEnvironment(env, deps);
  const asker = { key: `uninstall:${env.id}`, envId: env.id, envName: env.stored.name };
  try {
    const report = await remove(spec, {
      prompt: (prompt) => deps.prompts.ask(asker, prompt),
      onStage: () => undefined,
      onLog: () => undefined,
    });
    return report;
  } finally {
    deps.prompts.cancelAsker(asker.key);
  }
}
