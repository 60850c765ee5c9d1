// Turns an environment's settings (and its token) into the client's TransportSpec: the app's side
// of SpecContext; the kind's own toSpec (electron/client/transports/kinds.ts) does the rest.
import type { EnvironmentSettings } from '../../../shared/ipc';
import type { TransportSpec } from '../../client/api';
import { specFor } from '../../client/transports/kinds';
import type { LocalServerCommand } from './local-server';
import type { SshConfigLocation } from '../ssh/ssh-hosts';

export function transportFor(
  settings: EnvironmentSettings,
  token: string | null,
  local: LocalServerCommand,
  sshConfig: SshConfigLocation,
): TransportSpec {
  return specFor(settings, {
    token,
    localServer: local,
    // The same config file the host picker read, so an alias means the same host to both.
    ...(sshConfig.explicit ? { sshConfigFile: sshConfig.file } : {}),
  });
}
