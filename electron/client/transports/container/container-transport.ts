// The `container` transport: a running container reached with `ENGINE exec -i`, on this machine or
// on an SSH host (then over that host's master: ssh → engine exec). The container's shell is a
// HostShell, so it is prepared and bridged like an SSH host (remote-host/); a failure is explained
// by the container's state where that is the cause (stopped, removed).
import type { TransportSpec } from '../../api';
import type { ClientError } from '../../client-error';
import {
  FixedShellAccess,
  HostBootstrap,
  NO_HOOKS,
  type ShellAccess,
} from '../../remote-host/host-bootstrap';
import type { HostShell } from '../../remote-host/host-shell';
import { HostTransportOpener } from '../../remote-host/host-transport';
import type { ArtifactLocations } from '../../remote-host/local-artifacts';
import type { UninstallReport } from '../../remote-host/remote-uninstall';
import { SshShellAccess } from '../ssh/ssh-bootstrap';
import { DEFAULT_SSH_SESSION_TTL_MS, SSH_CONNECTION_FAILED_EXIT } from '../ssh/ssh-constants';
import type { SshHooks } from '../ssh/ssh-hooks';
import { sshChannelLost } from '../ssh/ssh-transport';
import { engineArgv, engineName, explainByContainer, type EngineLocation } from './container-engine';

export type ContainerTransportSpec = Extract<TransportSpec, { kind: 'container' }>;

/** The container's sh, through the engine wherever it runs. */
export class ContainerShell implements HostShell {
  constructor(
    private readonly location: EngineLocation,
    private readonly container: string,
  ) {}

  get hostName(): string {
    return `container ${this.container} (${engineName(this.location)})`;
  }

  /** Over ssh, ssh's own failure; on this machine the engine's failures are told by explain. */
  get channelFailureExit(): number | null {
    return this.location.via ? SSH_CONNECTION_FAILED_EXIT : null;
  }

  commandArgv(script: string): string[] {
    return engineArgv(this.location, ['exec', '-i', this.container, '/bin/sh', '-c', script]);
  }
}

/** The engine on an SSH host: the host's login (its master) carries every engine command. */
class SshContainerAccess implements ShellAccess {
  private readonly ssh: SshShellAccess;
  private location: EngineLocation | null = null;

  constructor(
    private readonly spec: ContainerTransportSpec & { host: NonNullable<ContainerTransportSpec['host']> },
    hooks: SshHooks | undefined,
  ) {
    this.ssh = new SshShellAccess(spec.host, hooks, (master) => {
      this.location = engineLocation(spec, master);
      return new ContainerShell(this.location, spec.container);
    });
  }

  open(): Promise<HostShell> {
    return this.ssh.open();
  }

  suspect(): void {
    this.ssh.suspect();
  }

  trust(): void {
    this.ssh.trust();
  }

  explain(error: ClientError): Promise<ClientError> {
    // ssh's own failures (the network, sign-in) are not the container's.
    if (!this.location || error.message === sshChannelLost(this.spec.host.destination)) {
      return Promise.resolve(error);
    }
    return explainByContainer(this.location, this.spec.container, error);
  }

  dispose(): void {
    this.ssh.dispose();
  }
}

function engineLocation(spec: ContainerTransportSpec, via?: HostShell): EngineLocation {
  return {
    engine: spec.engine,
    ...(spec.enginePath !== undefined ? { enginePath: spec.enginePath } : {}),
    ...(via ? { via } : {}),
  };
}

/** Where the container runs, as messages name it. */
export function containerTarget(spec: ContainerTransportSpec): string {
  return spec.host
    ? `container ${spec.container} on ${spec.host.destination}`
    : `container ${spec.container}`;
}

function containerBootstrap(
  spec: ContainerTransportSpec,
  hooks: SshHooks | undefined,
  artifacts: ArtifactLocations | undefined,
): HostBootstrap {
  const host = spec.host;
  const access = host
    ? new SshContainerAccess({ ...spec, host }, hooks)
    : new FixedShellAccess(new ContainerShell(engineLocation(spec), spec.container), (error) =>
        explainByContainer(engineLocation(spec), spec.container, error),
      );
  return new HostBootstrap(access, {
    sessionTtlMs: spec.sessionTtlMs ?? DEFAULT_SSH_SESSION_TTL_MS,
    hooks: hooks ?? NO_HOOKS,
    ...(spec.remoteNodePath !== undefined ? { remoteNodePath: spec.remoteNodePath } : {}),
    ...(artifacts ? { artifacts } : {}),
  });
}

export class ContainerTransportOpener extends HostTransportOpener {
  constructor(
    spec: ContainerTransportSpec,
    hooks: SshHooks | undefined,
    artifacts: ArtifactLocations | undefined,
  ) {
    super(
      containerBootstrap(spec, hooks, artifacts),
      {
        target: containerTarget(spec),
        failureExit: spec.host ? SSH_CONNECTION_FAILED_EXIT : null,
        lost: spec.host ? sshChannelLost(spec.host.destination) : '',
      },
      `${spec.engine} exec ${spec.container}${spec.host ? ` on ${spec.host.destination}` : ''}`,
    );
  }
}

/** Stops Tether's daemons in the container and removes what it installed there. */
export async function uninstallFromContainer(
  spec: ContainerTransportSpec,
  hooks: SshHooks | undefined,
): Promise<UninstallReport> {
  const bootstrap = containerBootstrap(spec, hooks, undefined);
  try {
    return await bootstrap.uninstall();
  } finally {
    bootstrap.dispose();
  }
}
