// A Container environment in the app: its connect bootstraps the container like an SSH host
// (stages shown as the connect progress, prompts when it rides an SSH host), so "Test connection"
// may take as long as an install; on this machine the engine's CLI must be there.
import { SSH_TEST_CONNECTION_TIMEOUT_MS } from '../../limits';
import { probeProgram } from '../test-stage';
import type { AppEnvironmentKind } from './app-kind';

export const containerAppKind: AppEnvironmentKind<'container'> = {
  kind: 'container',
  userAdded: true,
  // The contract checked each part; an empty ssh option list is stored as none.
  check: ({ host, ...rest }) => {
    if (!host) return rest;
    const { sshOptions, ...target } = host;
    return { ...rest, host: sshOptions && sshOptions.length > 0 ? { ...target, sshOptions } : target };
  },
  usesToken: false,
  retriesFirstConnect: false,
  bootstrapsHost: true,
  testTimeoutMs: SSH_TEST_CONNECTION_TIMEOUT_MS,
  preflight: async (spec) => {
    if (spec.kind === 'container' && !spec.host) await probeProgram(spec.enginePath ?? spec.engine);
  },
};
