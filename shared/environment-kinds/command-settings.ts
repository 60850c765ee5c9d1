// A Command environment: a local command whose stdin/stdout speak the protocol.
import { z } from 'zod';

export const CommandSettings = z.object({
  kind: z.literal('command'),
  /** A command line, split like a POSIX shell would (quotes respected), e.g. `ssh host tether exec-server --listen stdio`. */
  commandLine: z.string().min(1).max(4000),
});
