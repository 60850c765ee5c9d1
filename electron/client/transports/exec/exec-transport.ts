// The `exec` transport: any local command prefix that runs argv on a target with our stdio
// (`kubectl exec -i POD --`, `lxc exec C --`, `wsl -d D --`). `PREFIX /bin/sh -c SCRIPT` is the
// target's HostShell, so it is prepared and bridged like an SSH host (remote-host/).
import type { TransportSpec } from '../../api';
import { FixedShellAccess, HostBootstrap, NO_HOOKS } from '../../remote-host/host-bootstrap';
import type { HostShell } from '../../remote-host/host-shell';
import { HostTransportOpener } from '../../remote-host/host-transport';
import type { ArtifactLocations } from '../../remote-host/local-artifacts';
import type { UninstallReport } from '../../remote-host/remote-uninstall';
import { DEFAULT_SSH_SESSION_TTL_MS } from '../ssh/ssh-constants';
import type { SshHooks } from '../ssh/ssh-hooks';

export type ExecTransportSpec = Extract<TransportSpec, { kind: 'exec' }>;

/** The target's sh behind the prefix. */
export class ExecShell implements HostShell {
  /** A prefix's own failures have no status of their own that Tether knows. */
  readonly channelFailureExit = null;

  constructor(private readonly prefix: string[]) {}

  get hostName(): string {
    return `"${this.prefix.join(' ')}"`;
  }

  commandArgv(script: string): string[] {
    return [...this.prefix, '/bin/sh', '-c', script];
  }
}

function execBootstrap(
  spec: ExecTransportSpec,
  hooks: SshHooks | undefined,
  artifacts: ArtifactLocations | undefined,
): HostBootstrap {
  return new HostBootstrap(new FixedShellAccess(new ExecShell(spec.prefix)), {
    sessionTtlMs: spec.sessionTtlMs ?? DEFAULT_SSH_SESSION_TTL_MS,
    hooks: hooks ?? NO_HOOKS,
    ...(spec.remoteNodePath !== undefined ? { remoteNodePath: spec.remoteNodePath } : {}),
    ...(artifacts ? { artifacts } : {}),
  });
}

export class ExecTransportOpener extends HostTransportOpener {
  constructor(
    spec: ExecTransportSpec,
    hooks: SshHooks | undefined,
    artifacts: ArtifactLocations | undefined,
  ) {
    const target = new ExecShell(spec.prefix).hostName;
    super(execBootstrap(spec, hooks, artifacts), { target, failureExit: null, lost: '' }, `exec ${target}`);
  }
}

/** Stops Tether's daemons on the target and removes what it installed there. */
export async function uninstallThroughPrefix(
  spec: ExecTransportSpec,
  hooks: SshHooks | undefined,
): Promise<UninstallReport> {
  const bootstrap = execBootstrap(spec, hooks, undefined);
  try {
    return await bootstrap.uninstall();
  } finally {
    bootstrap.dispose();
  }
}
