// A Container environment: a running Docker or Podman container, here or on an SSH host, where
// Tether installs and starts its own server through `ENGINE exec -i` (as it does over SSH).
import { z } from 'zod';
import { SshSettings } from './ssh-settings';

/** The container engines whose CLI Tether drives (same arguments for both). */
export const CONTAINER_ENGINES = ['podman', 'docker'] as const;
export const ContainerEngine = z.enum(CONTAINER_ENGINES);
export type ContainerEngine = z.infer<typeof ContainerEngine>;

/** A container's name or id as both engines accept them (and never an option: no leading "-"). */
export const CONTAINER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,252}$/;

/** The SSH host a container runs on: the target fields of an SSH environment. */
export const ContainerHost = SshSettings.pick({ destination: true, port: true, sshOptions: true });
export type ContainerHost = z.infer<typeof ContainerHost>;

export const ContainerSettings = z.object({
  kind: z.literal('container'),
  engine: ContainerEngine,
  /** The engine's CLI when it is not `podman`/`docker` on PATH (a setting: `/opt/bin/docker`). */
  enginePath: z.string().min(1).max(1000).optional(),
  /** The container's name (or id). */
  container: z.string().regex(CONTAINER_NAME, 'not a container name (letters, digits and _.-)'),
  /** Run the engine on this SSH host (over ssh) instead of on this machine. */
  host: ContainerHost.optional(),
  /** A Node (≥ 20) inside the container to run the server with, instead of the one Tether uploads. */
  remoteNodePath: SshSettings.shape.remoteNodePath,
  /** How long the container keeps the session (and its processes) after the link drops. */
  sessionTtlMs: SshSettings.shape.sessionTtlMs,
});
export type ContainerSettings = z.infer<typeof ContainerSettings>;
