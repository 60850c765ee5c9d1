// ssh.* of the contract: the host picker's list, answering ssh's prompts, and an SSH environment's
// connect log for *Show log*.
import type { NamespaceHandlers } from './command-handlers';
import type { EnvironmentRegistry } from '../environments/environment-registry';
import { listSshHosts, type SshConfigLocation } from '../ssh/ssh-hosts';
import type { SshPromptBroker } from '../ssh/ssh-prompts';

export type SshHandlers = NamespaceHandlers<'ssh'>;

export interface SshHandlerDeps {
  envs: EnvironmentRegistry;
  prompts: SshPromptBroker;
  sshConfig: SshConfigLocation;
}

export function sshHandlers({ envs, prompts, sshConfig }: SshHandlerDeps): SshHandlers {
  return {
    'ssh.hosts': () => listSshHosts(sshConfig),
    'ssh.prompts': () => prompts.open(),
    'ssh.answerPrompt': ({ id, answer }) => {
      prompts.answer(id, answer);
      return { ok: true };
    },
    'ssh.connectLog': ({ envId }) => ({ lines: envs.get(envId).sshConnectLog }),
  };
}
