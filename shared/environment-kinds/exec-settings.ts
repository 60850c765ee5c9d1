// An Exec command environment: any command prefix that runs argv on a target with its stdin and
// stdout (`kubectl exec -i POD --`, `lxc exec C --`, `wsl -d D --`); Tether installs and starts its
// server on the target through it, as it does over SSH.
import { z } from 'zod';
import { SshSettings } from './ssh-settings';

export const ExecSettings = z.object({
  kind: z.literal('exec'),
  /** The prefix as a command line (split like a POSIX shell would); `/bin/sh -c SCRIPT` follows it. */
  prefix: z.string().min(1).max(4000),
  /** A Node (≥ 20) on the target to run the server with, instead of the one Tether uploads. */
  remoteNodePath: SshSettings.shape.remoteNodePath,
  /** How long the target keeps the session (and its processes) after the link drops. */
  sessionTtlMs: SshSettings.shape.sessionTtlMs,
});
export type ExecSettings = z.infer<typeof ExecSettings>;
