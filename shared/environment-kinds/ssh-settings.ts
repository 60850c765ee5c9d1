// An SSH environment: a host reached with the system OpenSSH client, where Tether installs and
// starts its own server.
import { z } from 'zod';
import { checkSshOption, MAX_SSH_OPTIONS, parseSshTarget } from '../ssh-target';

/** Bounds of an SSH environment's session lifetime (how long a dropped session waits on the host). */
export const SSH_SESSION_TTL_MIN_MS = 60_000;
export const SSH_SESSION_TTL_MAX_MS = 7 * 24 * 3_600_000;

export const SshSettings = z.object({
  kind: z.literal('ssh'),
  /** An alias from ~/.ssh/config or [user@]host, as ssh takes it (see shared/ssh-target.ts). */
  destination: z
    .string()
    .max(320)
    .refine((d) => {
      const parsed = parseSshTarget(d);
      return parsed.ok && parsed.value.destination === d && parsed.value.port === undefined;
    }, 'not an ssh destination (alias or [user@]host, no port, not starting with "-")'),
  port: z.number().int().min(1).max(65_535).optional(),
  /** Extra `Key=Value` options, each given to ssh as `-o Key=Value`. */
  sshOptions: z
    .array(
      z
        .string()
        .max(1000)
        .refine((o) => checkSshOption(o) === null, 'not a Key=Value ssh option'),
    )
    .max(MAX_SSH_OPTIONS)
    .optional(),
  /** A Node (≥ 20) on the host to run the server with, instead of the one Tether finds or installs. */
  remoteNodePath: z.string().min(1).max(1000).startsWith('/').optional(),
  /** How long the host keeps the session (and its processes) after the link drops. */
  sessionTtlMs: z.number().int().min(SSH_SESSION_TTL_MIN_MS).max(SSH_SESSION_TTL_MAX_MS).optional(),
});
