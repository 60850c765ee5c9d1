// The Local environment: built in (exactly one), the app's own server over stdio.
import type { AppEnvironmentKind } from './app-kind';
import { probeProgram } from '../test-stage';

export const localAppKind: AppEnvironmentKind<'local'> = {
  kind: 'local',
  userAdded: false,
  check: (settings) => settings,
  usesToken: false,
  retriesFirstConnect: false,
  bootstrapsHost: false,
  preflight: async (spec) => {
    if (spec.kind === 'stdio') await probeProgram(spec.command[0] ?? '');
  },
};
