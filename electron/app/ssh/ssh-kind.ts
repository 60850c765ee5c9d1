// An SSH environment in the app: its connect bootstraps the host (stages and prompts shown as the
// connect progress, ssh-connect-progress.ts and ssh-prompts.ts), so "Test connection" may take as
// long as an install; ssh itself does the checks a preflight would.
import { SSH_TEST_CONNECTION_TIMEOUT_MS } from '../limits';
import type { AppEnvironmentKind } from '../environments/kinds/app-kind';

export const sshAppKind: AppEnvironmentKind<'ssh'> = {
  kind: 'ssh',
  userAdded: true,
  // The contract checked each part; an empty option list is stored as none.
  check: ({ sshOptions, ...rest }) => (sshOptions && sshOptions.length > 0 ? { ...rest, sshOptions } : rest),
  usesToken: false,
  retriesFirstConnect: false,
  bootstrapsHost: true,
  testTimeoutMs: SSH_TEST_CONNECTION_TIMEOUT_MS,
};
