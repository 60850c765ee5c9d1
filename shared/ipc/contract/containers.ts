// The containers namespace: the live list of an engine's containers (on this machine or on an SSH
// environment's host) for the environment dialog, and starting a Container environment's stopped
// container (electron/app/handlers/container-handlers.ts).
import { z } from 'zod';
import { CONTAINER_NAME, ContainerEngine } from '../../environment-kinds';
import { command, type CommandsOfNamespace, EnvironmentId, Ok } from './common';

/** One container of the live list. */
export const ContainerView = z.object({
  name: z.string().regex(CONTAINER_NAME),
  id: z.string().max(200),
  image: z.string().max(1000),
  /** The engine's words: "Up 3 minutes", "Exited (0) 2 hours ago". */
  status: z.string().max(200),
  running: z.boolean(),
  /** Epoch ms of its creation (its age), or null if the engine did not say. */
  createdAt: z.number().nullable(),
});
export type ContainerView = z.infer<typeof ContainerView>;

export const ContainerListQuery = z.object({
  engine: ContainerEngine,
  /** The engine's CLI when it is not on the PATH. */
  enginePath: z.string().min(1).max(1000).optional(),
  /** List the containers of this SSH environment's host instead of this machine's. */
  sshEnvId: EnvironmentId.optional(),
});
export type ContainerListQuery = z.infer<typeof ContainerListQuery>;

export const containerCommands = {
  /** The engine's containers (running or not), newest first. */
  'containers.list': command(ContainerListQuery, z.array(ContainerView).max(1000)),
  /** Starts the stopped container of a Container environment, then reconnects the environment. */
  'containers.start': command(z.object({ envId: EnvironmentId }), Ok),
} as const satisfies CommandsOfNamespace<'containers'>;
