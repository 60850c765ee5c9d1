// An Exec command environment in the app: its prefix must split into a program that is there, and
// its connect bootstraps the target like an SSH host (stages shown as the connect progress).
import { splitCommandLine } from '../../../client/transports/command/command-line';
import { SSH_TEST_CONNECTION_TIMEOUT_MS } from '../../limits';
import { probeProgram } from '../test-stage';
import type { AppEnvironmentKind } from './app-kind';

export const execAppKind: AppEnvironmentKind<'exec'> = {
  kind: 'exec',
  userAdded: true,
  check: (settings) => {
    splitCommandLine(settings.prefix);
    return settings;
  },
  usesToken: false,
  retriesFirstConnect: false,
  bootstrapsHost: true,
  testTimeoutMs: SSH_TEST_CONNECTION_TIMEOUT_MS,
  preflight: async (spec) => {
    if (spec.kind === 'exec') await probeProgram(spec.prefix[0] ?? '');
  },
};
