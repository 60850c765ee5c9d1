// The Local environment: the app's own server on this machine, over stdio. There is exactly one.
import { z } from 'zod';

export const LocalSettings = z.object({ kind: z.literal('local') });
