// What the user does with containers: list an engine's containers (here or on an SSH environment's
// host) for the environment dialog, and start a Container environment's stopped container.
import type { ContainerListQuery, ContainerView } from '../../shared/ipc';
import { invoke } from '../ipc/ipc-client';

export function listContainers(query: ContainerListQuery): Promise<ContainerView[]> {
  return invoke('containers.list', query);
}

export async function startContainer(envId: string): Promise<void> {
  await invoke('containers.start', { envId });
}
