// containers.* of the contract: the live list of an engine's containers (here, or on an SSH
// environment's host) for the environment dialog, and *Start* for a Container environment whose
// container stopped (then it reconnects; a daemon the stop ended means a new session).
import type { TransportSpec } from '../../client/api';
import { listContainers, startContainer } from '../../client/transports/container/container-engine';
import { containerOf, engineOn } from '../../client/transports/container/container-kind';
import type { EnvironmentRegistry } from '../environments/environment-registry';
import type { EnvironmentRuntime } from '../environments/environment-runtime';
import type { NamespaceHandlers } from './command-handlers';

export type ContainerHandlers = NamespaceHandlers<'containers'>;

export interface ContainerHandlerDeps {
  envs: EnvironmentRegistry;
  /** What an environment's settings connect with. */
  specOf(env: EnvironmentRuntime): TransportSpec;
}

export function containerHandlers({ envs, specOf }: ContainerHandlerDeps): ContainerHandlers {
  return {
    'containers.list': ({ engine, enginePath, sshEnvId }) =>
      listContainers(
        engineOn(sshEnvId !== undefined ? specOf(envs.get(sshEnvId)) : null, engine, enginePath),
      ),
    'containers.start': async ({ envId }) => {
      const env = envs.get(envId);
      const { location, container } = containerOf(specOf(env));
      await startContainer(location, container);
      envs.reconnect(env);
      return { ok: true };
    },
  };
}
