// An SSH environment (`--ssh`, `tether ssh`): a host reached with the system OpenSSH client. The
// bootstrap (ssh-bootstrap.ts) logs in and prepares the host; each link is a bridge to the host's
// daemon, which outlives links, so a new link can resume the session.
import { ClientError } from '../../client-error';
import type { ClientEnvironmentKind, TransportKind } from '../environment-kind';
import { SshTransportOpener, uninstallFromSshHost } from './ssh-transport';

/** Seconds from the command line, as milliseconds; `flag` names it in the error. */
function seconds(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value) * 1000;
  if (!(ms > 0)) throw new ClientError('invalidArgument', `${flag} expects a positive number of seconds.`);
  return ms;
}

export const sshKind: ClientEnvironmentKind<'ssh'> = {
  kind: 'ssh',
  toSpec: (settings, { sshConfigFile }) => {
    const sshOptions = [
      ...(sshConfigFile !== undefined ? ['-F', sshConfigFile] : []),
      ...(settings.sshOptions ?? []).flatMap((option) => ['-o', option]),
    ];
    return {
      kind: 'ssh',
      destination: settings.destination,
      ...(settings.port !== undefined ? { port: settings.port } : {}),
      ...(sshOptions.length > 0 ? { sshOptions } : {}),
      ...(settings.remoteNodePath ? { remoteNodePath: settings.remoteNodePath } : {}),
      ...(settings.sessionTtlMs !== undefined ? { sessionTtlMs: settings.sessionTtlMs } : {}),
    };
  },
  cli: {
    select: {
      flags: '--ssh <destination>',
      description: 'an SSH host (config alias or [user@]host): Tether installs its server there',
    },
    example: '--ssh HOST',
    options: [
      {
        flags: '-o, --ssh-option <option>',
        description: 'an ssh -o option, e.g. ProxyJump=bastion (repeatable)',
        repeatable: true,
      },
      { flags: '-F, --ssh-config <file>', description: 'an ssh config file instead of ~/.ssh/config' },
      { flags: '-p, --port <port>', description: 'ssh port (default: from your ssh config, else 22)' },
      { flags: '--remote-node <path>', description: 'a Node ≥ 20 on the host to run the server with' },
      {
        flags: '--session-ttl <seconds>',
        description: 'how long the host keeps the session after a drop (default 3 h)',
      },
    ],
    fromOptions: (destination, options) => {
      const rawPort = options.port as string | undefined;
      const port = rawPort === undefined ? undefined : Number(rawPort);
      if (port !== undefined && !(Number.isInteger(port) && port > 0 && port < 65_536)) {
        throw new ClientError('invalidArgument', `--port expects a TCP port, got "${rawPort}".`);
      }
      const sessionTtlMs = seconds(options.sessionTtl as string | undefined, '--session-ttl');
      const sshOptions = (options.sshOption as string[] | undefined) ?? [];
      const remoteNodePath = options.remoteNode as string | undefined;
      const sshConfigFile = options.sshConfig as string | undefined;
      return {
        settings: {
          kind: 'ssh',
          destination,
          ...(port !== undefined ? { port } : {}),
          ...(sshOptions.length > 0 ? { sshOptions } : {}),
          ...(remoteNodePath !== undefined ? { remoteNodePath } : {}),
          ...(sessionTtlMs !== undefined ? { sessionTtlMs } : {}),
        },
        context: sshConfigFile !== undefined ? { sshConfigFile } : {},
      };
    },
  },
};

export const sshTransport: TransportKind<'ssh'> = {
  opener: (spec, options) =>
    new SshTransportOpener(spec, options.ssh, options.sshArtifacts, options.sshSharedMaster === true),
  whyLinkCannotResume: () => null,
  uninstall: uninstallFromSshHost,
};
