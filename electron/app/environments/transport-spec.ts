// Turns an environment's settings (and its token) into the client's TransportSpec.
import type { EnvironmentSettings } from '../../../shared/ipc';
import type { TransportSpec } from '../../client/api';
import { splitCommandLine } from './command-line';
import type { LocalServerCommand } from './local-server';
import type { SshConfigLocation } from '../ssh/ssh-hosts';

export function transportFor(
  settings: EnvironmentSettings,
  token: string | null,
  local: LocalServerCommand,
  sshConfig: SshConfigLocation,
): TransportSpec {
  switch (settings.kind) {
    case 'local':
      return { kind: 'stdio', command: local.command, ...(local.env ? { env: local.env } : {}) };
    case 'ws':
      return {
        kind: 'ws',
        url: settings.url,
        ...(token ? { token } : {}),
        ...(settings.tlsFingerprint ? { tlsFingerprint: settings.tlsFingerprint } : {}),
      };
    case 'command':
      return { kind: 'stdio', command: splitCommandLine(settings.commandLine) };
    case 'ssh': {
      // The same config file the host picker read, so an alias means the same host to both.
      const config = sshConfig.explicit ? ['-F', sshConfig.file] : [];
      const options = (settings.sshOptions ?? []).flatMap((option) => ['-o', option]);
      return {
        kind: 'ssh',
        destination: settings.destination,
        ...(settings.port !== undefined ? { port: settings.port } : {}),
        ...(config.length + options.length > 0 ? { sshOptions: [...config, ...options] } : {}),
        ...(settings.remoteNodePath ? { remoteNodePath: settings.remoteNodePath } : {}),
        ...(settings.sessionTtlMs !== undefined ? { sessionTtlMs: settings.sessionTtlMs } : {}),
      };
    }
  }
}
