// What the user does with SSH: list the hosts of ~/.ssh/config and add one, answer or cancel ssh's
// prompts, read an environment's connect log, remove Tether from a host.
import type { SshHostEntryDraft, SshHostEntryView, SshHostView, SshUninstallReport } from '../../shared/ipc';
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

/** The Host entry "Add new SSH host" would append, and where; nothing is written. */
export function planSshHostEntry(draft: SshHostEntryDraft): Promise<SshHostEntryView> {
  return invoke('ssh.planHostEntry', draft);
}

/** Appends the entry (after the user saw it and said yes). */
export function addSshHostEntry(draft: SshHostEntryDraft): Promise<SshHostEntryView> {
  return invoke('ssh.addHostEntry', draft);
}

/** Disconnects the environment and removes Tether from its host; says what was removed. */
export function uninstallFromHost(envId: string): Promise<SshUninstallReport> {
  return invoke('ssh.uninstall', { envId });
}
