// What the Ports panel and the palette do with forwards: each action is one forwards.* command, and
// the store follows from its answer (and from forwards.changed, which may arrive before or after it).
import type { ForwardView } from '../../shared/ipc';
import { invoke } from '../ipc/ipc-client';
import { openLink } from '../web-links/link-actions';
import { useForwards } from './forwards-store';

export async function loadForwards(envId: string): Promise<void> {
  useForwards.getState().setForEnv(envId, await invoke('forwards.list', { envId }));
}

export async function addForward(input: {
  envId: string;
  port: number;
  localPort?: number;
  label?: string;
}): Promise<ForwardView> {
  const view = await invoke('forwards.add', { host: 'localhost', ...input });
  await loadForwards(input.envId);
  return view;
}

export async function setForwardLocalPort(f: ForwardView, localPort: number): Promise<void> {
  await invoke('forwards.setLocalPort', { envId: f.envId, id: f.id, localPort });
  await loadForwards(f.envId);
}

export async function stopForward(f: ForwardView): Promise<void> {
  await invoke('forwards.stop', { envId: f.envId, id: f.id });
  await loadForwards(f.envId);
}

/** The page a forward serves here: its IPv4 loopback address, which every local browser reaches. */
export function forwardUrl(f: ForwardView): string | null {
  return f.boundPort === null ? null : `http://localhost:${f.boundPort}/`;
}

/** Opens the forward in the browser: a new tab in web mode, the system browser in Electron. */
export async function openForward(f: ForwardView): Promise<void> {
  const url = forwardUrl(f);
  if (url) await openLink(url);
}

export async function copyForwardUrl(f: ForwardView): Promise<void> {
  const url = forwardUrl(f);
  if (url) await navigator.clipboard.writeText(url);
}
