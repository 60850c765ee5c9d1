// What every namespace of the contract builds on: the environment id, the empty and ok shapes, and
// the command declaration helper.
import { z } from 'zod';

export const EnvironmentId = z.string().min(1).max(100);

export const Empty = z.object({}).strict();
export const Ok = z.object({ ok: z.literal(true) });

/**
 * Raw bytes (process output, typed input). They cross IPC as a Uint8Array (Electron's structured
 * clone, the web host's binary envelope), never as base64 text. A Node Buffer is one too.
 */
export const Bytes = z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'expected bytes');

/** One command: the schema its input is validated with, and the schema of what it answers. */
export function command<I extends z.ZodType, O extends z.ZodType>(input: I, output: O) {
  return { input, output };
}

/**
 * The commands of one contract file: only its namespaces' names (`${P}.…`), so each file stays the
 * mirror of one handler file and no two files can declare the same command.
 */
export type CommandsOfNamespace<P extends string> = Record<
  `${P}.${string}`,
  { input: z.ZodType; output: z.ZodType }
>;
/** The events of one contract file, held to its namespaces' names like its commands. */
export type EventsOfNamespace<P extends string> = Record<`${P}.${string}`, z.ZodType>;
