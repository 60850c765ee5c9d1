// An Exec command environment (`--exec "PREFIX…"`): any command prefix that runs argv on a target
// with our stdio. Tether installs its server on the target through it and bridges to its daemon
// there, which outlives links, so a new link can resume the session.
import type { ClientEnvironmentKind, TransportKind } from '../environment-kind';
import { splitCommandLine } from '../command/command-line';
import { sshKind } from '../ssh/ssh-kind';
import { ExecTransportOpener, uninstallThroughPrefix } from './exec-transport';

export const execKind: ClientEnvironmentKind<'exec'> = {
  kind: 'exec',
  toSpec: (settings) => ({
    kind: 'exec',
    prefix: splitCommandLine(settings.prefix),
    ...(settings.remoteNodePath ? { remoteNodePath: settings.remoteNodePath } : {}),
    ...(settings.sessionTtlMs !== undefined ? { sessionTtlMs: settings.sessionTtlMs } : {}),
  }),
  cli: {
    select: {
      flags: '--exec <prefix>',
      description:
        'a command prefix that runs argv on a target with stdin/stdout (e.g. "kubectl exec -i POD --"): Tether installs its server there',
    },
    example: '--exec "PREFIX"',
    options: [],
    fromOptions: (prefix, options) => {
      // --remote-node and --session-ttl are the SSH kind's flags; it checks them.
      const { remoteNodePath, sessionTtlMs } = sshKind.cli!.fromOptions('localhost', options).settings;
      return {
        settings: {
          kind: 'exec',
          prefix,
          ...(remoteNodePath !== undefined ? { remoteNodePath } : {}),
          ...(sessionTtlMs !== undefined ? { sessionTtlMs } : {}),
        },
        context: {},
      };
    },
  },
};

export const execTransport: TransportKind<'exec'> = {
  opener: (spec, options) => new ExecTransportOpener(spec, options.ssh, options.sshArtifacts),
  whyLinkCannotResume: () => null,
  uninstall: uninstallThroughPrefix,
};
