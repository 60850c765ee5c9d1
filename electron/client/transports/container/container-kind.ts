// A Container environment (`--container [ENGINE:]NAME`, with `--ssh HOST` for a container on that
// host): Tether installs its server inside the running container and bridges to its daemon there,
// which outlives links, so a new link can resume the session.
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import {
  CONTAINER_ENGINES,
  type ContainerEngine,
} from '../../../../shared/environment-kinds/container-settings';
import { ClientError } from '../../client-error';
import type { ClientEnvironmentKind, CliValues, TransportKind } from '../environment-kind';
import { sshKind } from '../ssh/ssh-kind';
import type { TransportSpec } from '../../api';
import { batchSshArgv } from '../ssh/ssh-master';
import type { EngineLocation } from './container-engine';
import { ContainerTransportOpener, uninstallFromContainer } from './container-transport';

/** The first engine of CONTAINER_ENGINES whose CLI is on this machine's PATH, else docker. */
export function defaultEngine(searchPath = process.env.PATH ?? ''): ContainerEngine {
  for (const engine of CONTAINER_ENGINES) {
    for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
      try {
        accessSync(path.join(dir, engine), constants.X_OK);
        return engine;
      } catch {
        // Not in this directory.
      }
    }
  }
  return 'docker';
}

/** `[docker:|podman:]NAME` → engine and container. */
export function parseContainerRef(ref: string): { engine: ContainerEngine | null; container: string } {
  const colon = ref.indexOf(':');
  if (colon < 0) return { engine: null, container: ref };
  const engine = ref.slice(0, colon);
  if (!(CONTAINER_ENGINES as readonly string[]).includes(engine)) {
    throw new ClientError(
      'invalidArgument',
      `--container takes [${CONTAINER_ENGINES.join(':|')}:]NAME; "${engine}" is not an engine Tether drives.`,
    );
  }
  return { engine: engine as ContainerEngine, container: ref.slice(colon + 1) };
}

/** The SSH flags of `options` (`--ssh`, `-p`, `-o`, `-F`, `--remote-node`, `--session-ttl`), parsed by the SSH kind. */
function sshFlags(
  destination: string,
  options: CliValues,
): ReturnType<NonNullable<typeof sshKind.cli>['fromOptions']> {
  return sshKind.cli!.fromOptions(destination, options);
}

export const containerKind: ClientEnvironmentKind<'container'> = {
  kind: 'container',
  toSpec: (settings, context) => {
    const host = settings.host ? sshKind.toSpec({ kind: 'ssh', ...settings.host }, context) : null;
    return {
      kind: 'container',
      engine: settings.engine,
      container: settings.container,
      ...(settings.enginePath !== undefined ? { enginePath: settings.enginePath } : {}),
      ...(host?.kind === 'ssh'
        ? {
            host: {
              destination: host.destination,
              ...(host.port !== undefined ? { port: host.port } : {}),
              ...(host.sshOptions ? { sshOptions: host.sshOptions } : {}),
            },
          }
        : {}),
      ...(settings.remoteNodePath ? { remoteNodePath: settings.remoteNodePath } : {}),
      ...(settings.sessionTtlMs !== undefined ? { sessionTtlMs: settings.sessionTtlMs } : {}),
    };
  },
  cli: {
    select: {
      flags: '--container <[engine:]name>',
      description:
        'a running Docker or Podman container (with --ssh HOST: one on that host): Tether installs its server inside',
    },
    example: '--container NAME',
    options: [
      { flags: '--engine-path <path>', description: "the container engine's CLI, if not on the PATH" },
    ],
    rides: ['ssh'],
    fromOptions: (ref, options) => {
      const { engine, container } = parseContainerRef(ref);
      const destination = options.ssh as string | undefined;
      // The SSH kind reads the host's flags and the bootstrap's (--remote-node, --session-ttl).
      const ssh = sshFlags(destination ?? 'localhost', options);
      const {
        kind: _kind,
        destination: _destination,
        remoteNodePath,
        sessionTtlMs,
        ...target
      } = ssh.settings;
      const enginePath = options.enginePath as string | undefined;
      return {
        settings: {
          kind: 'container',
          engine: engine ?? defaultEngine(),
          container,
          ...(enginePath !== undefined ? { enginePath } : {}),
          ...(destination !== undefined ? { host: { destination, ...target } } : {}),
          ...(remoteNodePath !== undefined ? { remoteNodePath } : {}),
          ...(sessionTtlMs !== undefined ? { sessionTtlMs } : {}),
        },
        context: ssh.context,
      };
    },
    strayOption: (options) =>
      options.enginePath !== undefined ? '--engine-path goes with --container.' : null,
  },
};

export const containerTransport: TransportKind<'container'> = {
  opener: (spec, options) => new ContainerTransportOpener(spec, options.ssh, options.sshArtifacts),
  whyLinkCannotResume: () => null,
  uninstall: uninstallFromContainer,
};

/**
 * The engine on this machine, or on the host of an SSH environment (`hostSpec`), asked over a
 * one-off ssh command that never prompts.
 */
export function engineOn(
  hostSpec: TransportSpec | null,
  engine: ContainerEngine,
  enginePath: string | undefined,
): EngineLocation {
  const location: EngineLocation = { engine, ...(enginePath !== undefined ? { enginePath } : {}) };
  if (hostSpec === null) return location;
  if (hostSpec.kind !== 'ssh') {
    throw new ClientError('invalidArgument', 'Containers are listed on this machine or on an SSH host.');
  }
  const target = {
    destination: hostSpec.destination,
    ...(hostSpec.port !== undefined ? { port: hostSpec.port } : {}),
    ...(hostSpec.sshOptions ? { sshOptions: hostSpec.sshOptions } : {}),
  };
  return {
    ...location,
    via: { hostName: target.destination, commandArgv: (command) => batchSshArgv(target, command) },
  };
}

/** The engine a Container environment's spec runs on, and its container; throws for other specs. */
export function containerOf(spec: TransportSpec): { location: EngineLocation; container: string } {
  if (spec.kind !== 'container') {
    throw new ClientError('invalidArgument', 'Only a Container environment has a container to start.');
  }
  const host: TransportSpec | null = spec.host ? { kind: 'ssh', ...spec.host } : null;
  return { location: engineOn(host, spec.engine, spec.enginePath), container: spec.container };
}
