// Turns an environment's settings (and its token) into the client's TransportSpec.
import type { EnvironmentSettings } from '../../shared/ipc';
import type { TransportSpec } from '../client/api';
import { AppError } from './app-error';
import { splitCommandLine } from './command-line';
import type { LocalServerCommand } from './local-server';

export function transportFor(
  settings: EnvironmentSettings,
  token: string | null,
  local: LocalServerCommand,
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
    case 'ssh':
      throw new AppError('unsupported', 'This build of Tether cannot connect SSH environments yet.');
  }
}
