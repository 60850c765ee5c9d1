// A Command environment: its command line must split into a program to run (a ClientError
// 'invalidArgument' otherwise, which reaches the UI as invalidInput).
import { splitCommandLine } from '../../../client/transports/command/command-line';
import { probeProgram } from '../test-stage';
import type { AppEnvironmentKind } from './app-kind';

export const commandAppKind: AppEnvironmentKind<'command'> = {
  kind: 'command',
  userAdded: true,
  check: (settings) => {
    splitCommandLine(settings.commandLine);
    return settings;
  },
  usesToken: false,
  retriesFirstConnect: false,
  bootstrapsHost: false,
  preflight: async (spec) => {
    if (spec.kind === 'stdio') await probeProgram(spec.command[0] ?? '');
  },
};
