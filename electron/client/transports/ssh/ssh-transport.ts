// The `ssh` transport: the bootstrap prepares the host, then each link is the stdio transport over
// `ssh … server.mjs bridge`, relaying to the host's daemon. A reconnect runs the bridge with
// --no-start, whose exit 90 means the daemon (and so the session) is gone: that is said plainly,
// and never papered over with a fresh session.
import type { TransportSpec } from '../../api';
import { ClientError } from '../../client-error';
import { openStdioTransport } from '../stdio-transport';
import type { Transport, TransportHandlers, TransportOpener } from '../transport-types';
import type { ArtifactLocations } from '../../remote-host/local-artifacts';
import { SshBootstrap, type SshBootstrapOptions } from './ssh-bootstrap';
import type { UninstallReport } from '../../remote-host/remote-uninstall';
import { BRIDGE_EXIT_NO_DAEMON } from '../../../../shared/remote-bundle';
import { DEFAULT_SSH_SESSION_TTL_MS, SSH_CONNECTION_FAILED_EXIT } from './ssh-constants';
import type { SshHooks } from './ssh-hooks';

export type SshTransportSpec = Extract<TransportSpec, { kind: 'ssh' }>;

/**
 * What the end of a bridge means, in the user's words, where its exit status tells: the daemon is
 * gone (a reconnect with --no-start), or ssh lost the connection. Null: the stdio transport's own.
 */
export function bridgeExitError(
  code: number | null,
  resume: boolean,
  destination: string,
): ClientError | null {
  if (resume && code === BRIDGE_EXIT_NO_DAEMON) {
    return new ClientError(
      'unknownSession',
      `The session was lost on ${destination}: Tether's daemon there is gone (e.g. after a ` +
        'reboot), and with it the processes of this session. Reconnect to start a new session.',
    );
  }
  if (code === SSH_CONNECTION_FAILED_EXIT) {
    return new ClientError(
      'disconnected',
      `The SSH connection to ${destination} dropped (the network, or the host closed it).`,
    );
  }
  return null;
}

function bootstrapOptions(
  spec: SshTransportSpec,
  hooks: SshHooks | undefined,
  artifacts: ArtifactLocations | undefined,
): SshBootstrapOptions {
  return {
    target: { destination: spec.destination, port: spec.port, sshOptions: spec.sshOptions },
    remoteNodePath: spec.remoteNodePath,
    sessionTtlMs: sshSessionTtlMs(spec),
    hooks,
    artifacts,
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

export class SshTransportOpener implements TransportOpener {
  private readonly bootstrap: SshBootstrap;

  constructor(
    private readonly spec: SshTransportSpec,
    hooks: SshHooks | undefined,
    artifacts: ArtifactLocations | undefined,
  ) {
    this.bootstrap = new SshBootstrap(bootstrapOptions(spec, hooks, artifacts));
  }

  prepare(resume: boolean): Promise<void> {
    return this.bootstrap.prepare(resume);
  }

  async open(handlers: TransportHandlers, timeoutMs: number, resume: boolean): Promise<Transport> {
    const { argv, preamble } = this.bootstrap.bridgeCommand(resume);
    let delivered = false;
    const transport = await openStdioTransport(
      {
        command: argv,
        preamble,
        exitError: (code) => bridgeExitError(code, resume, this.spec.destination),
      },
      {
        onMessage: (message, binary) => handlers.onMessage(message, binary),
        onBroken: (reason) => handlers.onBroken(reason),
        onActivity: () => {
          if (!delivered) {
            delivered = true;
            this.bootstrap.connected();
          }
          handlers.onActivity();
        },
        onClose: (error) => {
          if (!delivered) this.bootstrap.suspectMaster();
          handlers.onClose(error);
        },
      },
      timeoutMs,
    );
    return { ...transport, description: `ssh ${this.spec.destination}` };
  }

  linkStalled(): void {
    this.bootstrap.suspectMaster();
  }

  dispose(): void {
    this.bootstrap.dispose();
  }
}
