// What the user can do with environments: add, edit, remove, test, reconnect, connect/disconnect.
import type { EnvironmentDraft, CommandInput, SshConnectView, TestConnectionResult } from '../../shared/ipc';
import { invoke, onEvent } from '../ipc/ipc-client';
import { closeEditorsOf } from '../editor/editor-actions';
import { useEnvironments } from './environments-store';
import { usePanes } from '../panes/panes-store';
import { useProcesses } from '../processes/processes-store';
import { useForwards } from '../forwarding/forwards-store';
import { useUi } from '../app/ui-store';
import { forgetFirstShell, openFirstShell } from '../processes/first-shell';

export async function addEnvironment(draft: EnvironmentDraft): Promise<void> {
  const env = await invoke('environments.add', draft);
  useEnvironments.getState().upsert(env);
  useUi.getState().selectEnv(env.id);
  openFirstShell(env.id);
}

export async function updateEnvironment(id: string, draft: EnvironmentDraft): Promise<void> {
  const env = await invoke('environments.update', { id, draft });
  useEnvironments.getState().upsert(env);
}

export async function removeEnvironment(id: string, terminateProcesses: boolean): Promise<void> {
  await invoke('environments.remove', { id, terminateProcesses });
  forgetEnvironment(id);
}

/** Drops everything the renderer holds about an environment the AppService removed. */
export function forgetEnvironment(id: string): void {
  forgetFirstShell(id);
  useEnvironments.getState().remove(id);
  useProcesses.getState().removeEnv(id);
  useForwards.getState().removeEnv(id);
  usePanes.getState().removeEnv(id);
  closeEditorsOf(id);
  const ui = useUi.getState();
  if (ui.activeEnvId === id) ui.selectEnv(useEnvironments.getState().order[0] ?? null);
}

/**
 * Runs "Test connection". A test with a `testId` (SSH) reports its stages while it runs: each one
 * is passed to `onStages` until the result is in.
 */
export async function testConnection(
  input: CommandInput<'environments.test'>,
  onStages?: (progress: SshConnectView) => void,
): Promise<TestConnectionResult> {
  const { testId } = input;
  const stop =
    testId && onStages
      ? onEvent('ssh.testProgress', (event) => event.testId === testId && onStages(event.progress))
      : () => undefined;
  try {
    return await invoke('environments.test', input);
  } finally {
    stop();
  }
}

/** How the host keeps saved tokens (encrypted by the system keychain, or not). */
export function tokenStorage() {
  return invoke('app.tokenStorage', {});
}

export function reconnectNow(id: string): Promise<unknown> {
  return invoke('environments.reconnectNow', { id });
}

export function reconnectAll(): Promise<unknown> {
  return invoke('environments.reconnectAll', {});
}

/**
 * The browser's signs that the network may be back — `online`, and the window regaining focus (the
 * user is back, perhaps after the laptop slept) — passed on so reconnecting environments retry now.
 * Returns the function that stops listening.
 */
export function forwardNetworkSignals(target: Window): () => void {
  const signal = (): void => void invoke('environments.networkMayBeBack', {}).catch(() => undefined);
  target.addEventListener('online', signal);
  target.addEventListener('focus', signal);
  return () => {
    target.removeEventListener('online', signal);
    target.removeEventListener('focus', signal);
  };
}

export function setConnected(id: string, connected: boolean): Promise<unknown> {
  return connected ? invoke('environments.connect', { id }) : invoke('environments.disconnect', { id });
}
