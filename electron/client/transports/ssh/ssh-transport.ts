// The `ssh` transport: the bootstrap prepares the host, then each link is the stdio transport over
// `ssh … server.mjs bridge`, relaying to the host's daemon. A reconnect runs the bridge with
// --no-start, whose exit 90 means the daemon (and so the session) is gone: that is said plainly,
// and never papered over with a fresh session.
import type { TransportSpec } from '../../api';
import { ClientError } from '../../client-error';
import type { Transport, TransportHandlers, TransportOpener } from '../transport-types';
import type { ArtifactLocations } from '../../remote-host/local-artifacts';
import { SshBootstrap, type SshBootstrapOptions } from './ssh-bootstrap';
import { startBridge, type StartedBridge } from '../../remote-host/host-bridge';
import { CONNECT_TIMEOUT_MS } from '../../constants';
import type { UninstallReport } from '../../remote-host/remote-uninstall';
import { BRIDGE_EXIT_NO_DAEMON } from '../../../../shared/remote-bundle';
import { SshError } from './ssh-error';
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

export class SshTransportOpener implements TransportOpener {
  private readonly bootstrap: SshBootstrap;
  /** The bridge prepare started, until open hands it to the link. */
  private started: StartedBridge | null = null;

  constructor(
    private readonly spec: SshTransportSpec,
    hooks: SshHooks | undefined,
    artifacts: ArtifactLocations | undefined,
    sharedMaster = false,
  ) {
    this.bootstrap = new SshBootstrap(bootstrapOptions(spec, hooks, artifacts, sharedMaster));
  }

  /**
   * Signs in if needed and starts the bridge: on a prepared host that is the only command run
   * there; an unprepared one is examined and installed to first (host-bridge.ts).
   */
  async prepare(resume: boolean): Promise<void> {
    this.started?.close();
    this.started = null;
    const setup = await this.bootstrap.prepare();
    try {
      this.started = await startBridge(setup, resume, {
        timeoutMs: CONNECT_TIMEOUT_MS,
        exitError: (code) => bridgeExitError(code, resume, this.spec.destination),
      });
    } catch (error) {
      // The bridge ended or stalled before a byte came over the master: it may be stuck on a dead
      // route. (A failed setup step is an SshError, and says nothing about the master.)
      if (!(error instanceof SshError)) this.bootstrap.suspectMaster();
      throw error;
    }
    this.bootstrap.connected(resume);
  }

  open(handlers: TransportHandlers): Promise<Transport> {
    const started = this.started;
    this.started = null;
    if (!started) {
      return Promise.reject(
        new ClientError('transport', `The SSH host ${this.spec.destination} is not prepared.`),
      );
    }
    try {
      const transport = started.attach(handlers);
      return Promise.resolve({ ...transport, description: `ssh ${this.spec.destination}` });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  linkStalled(): void {
    this.bootstrap.suspectMaster();
  }

  dispose(): void {
    this.started?.close();
    this.started = null;
    this.bootstrap.dispose();
  }
}
