// The Local environment: the app's own server, spawned over stdio. The CLI has no Local.
import type { ClientEnvironmentKind } from '../environment-kind';
import { ClientError } from '../../client-error';

export const localKind: ClientEnvironmentKind<'local'> = {
  kind: 'local',
  toSpec: (_settings, { localServer }) => {
    if (!localServer) throw new ClientError('invalidArgument', 'Only the app has a Local environment.');
    return {
      kind: 'stdio',
      command: localServer.command,
      ...(localServer.env ? { env: localServer.env } : {}),
    };
  },
};
