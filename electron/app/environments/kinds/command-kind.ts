// A Command environment: its command line must split into a program to run.
import { isClientError } from '../../../client/client-error';
import { splitCommandLine } from '../../../client/transports/command/command-line';
import { AppError } from '../../app-error';
import { probeProgram } from '../test-stage';
import type { AppEnvironmentKind } from './app-kind';

export const commandAppKind: AppEnvironmentKind<'command'> = {
  kind: 'command',
  userAdded: true,
  check: (settings) => {
    try {
      splitCommandLine(settings.commandLine);
    } catch (error) {
      if (isClientError(error, 'invalidArgument')) throw new AppError('invalidInput', error.message);
      throw error;
    }
    return settings;
  },
  usesToken: false,
  retriesFirstConnect: false,
  bootstrapsHost: false,
  preflight: async (spec) => {
    if (spec.kind === 'stdio') await probeProgram(spec.command[0] ?? '');
  },
};
