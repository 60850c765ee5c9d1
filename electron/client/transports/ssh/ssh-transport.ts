// The `ssh` transport: the bootstrap signs in and prepares the host, then each link is a bridge
// to the host's daemon over the master (remote-host/host-transport.ts, shared with every
// bootstrapped kind).
import type { TransportSpec } from '../../api';
import type { ClientError } from '../../client-error';
import type { ArtifactLocations } from '../../remote-host/local-artifacts';
import {
  bridgeExitError as hostBridgeExitError,
  HostTransportOpener,
} from '../../remote-host/host-transport';
import { SshBootstrap, type SshBootstrapOptions } from './ssh-bootstrap';
import type { UninstallReport } from '../../remote-host/remote-uninstall';
import { DEFAULT_SSH_SESSION_TTL_MS, SSH_CONNECTION_FAILED_EXIT } from './ssh-constants';
import type { SshHooks } from './ssh-hooks';

export type SshTransportSpec = Extract<TransportSpec, { kind: 'ssh' }>;

/** What ssh's exit 255 means for a link to `destination`. */
export function sshChannelLost(destination: string): string {
  return `The SSH connection to ${destination} dropped (the network, or the host closed it).`;
}

/**
 * What the end of a bridge means, in the user's words, where its exit status tells: the daemon is
 * gone (a reconnect with --no-start), or ssh lost the connection. Null: the stdio transport's own.
 */
export function bridgeExitError(
  code: number | null,
  resume: boolean,
  destination: string,
): ClientError | null {
  return hostBridgeExitError(code, resume, {
    target: destination,
    failureExit: SSH_CONNECTION_FAILED_EXIT,
    lost: sshChannelLost(destination),
  });
}

function bootstrapOptions(
  spec: SshTransportSpec,
  hooks: SshHooks | undefined,
  artifacts: ArtifactLocations | undefined,
  sharedMaster = false,
): SshBootstrapOptions {
  return {
    target: { destination: spec.destination, port: spec.port, sshOptions: spec.sshOptions },
    remoteNodePath: spec.remoteNodePath,
    sessionTtlMs: sshSessionTtlMs(spec),
    hooks,
    artifacts,
    sharedMaster,
  };
}

/**
 * Signs in to the host of `spec` on a connection of its own and removes Tether from it: its
 * daemons, server versions, runtimes and run files. Whoever uses the host must be disconnected
 * first, or its reconnect would install again.
 */
export async function uninstallFromSshHost(
  spec: SshTransportSpec,
  hooks: SshHooks | undefined,
): Promise<UninstallReport> {
  const bootstrap = new SshBootstrap(bootstrapOptions(spec, hooks, undefined));
  try {
    return await bootstrap.uninstall();
  } finally {
    bootstrap.dispose();
  }
}

/** How long the host keeps this environment's session after a drop: its setting, else 3 h. */
export function sshSessionTtlMs(spec: SshTransportSpec): number {
  return spec.sessionTtlMs ?? DEFAULT_SSH_SESSION_TTL_MS;
}

export class SshTransportOpener extends HostTransportOpener {
  constructor(
    spec: SshTransportSpec,
    hooks: SshHooks | undefined,
    artifacts: ArtifactLocations | undefined,
    sharedMaster = false,
  ) {
    super(
      new SshBootstrap(bootstrapOptions(spec, hooks, artifacts, sharedMaster)),
      {
        target: spec.destination,
        failureExit: SSH_CONNECTION_FAILED_EXIT,
        lost: sshChannelLost(spec.destination),
      },
      `ssh ${spec.destination}`,
    );
  }
}
