// What the user does with SSH: list the hosts of ~/.ssh/config, answer or cancel ssh's prompts,
// read an environment's connect log.
import type { SshHostView } from '../../shared/ipc';
import { invoke } from '../ipc/ipc-client';
import { useSshPrompts } from './ssh-prompts-store';

export function listSshHosts(): Promise<SshHostView[]> {
  return invoke('ssh.hosts', {});
}

/** Answers a prompt (null cancels it); it leaves the screen at once, whatever the host says. */
export async function answerSshPrompt(id: string, answer: string | null): Promise<void> {
  useSshPrompts.getState().remove(id);
  await invoke('ssh.answerPrompt', { id, answer });
}

export async function readConnectLog(envId: string): Promise<string[]> {
  return (await invoke('ssh.connectLog', { envId })).lines;
}
