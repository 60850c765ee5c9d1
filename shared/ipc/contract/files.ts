// The files namespace: directory entries, previews, and the commands of
// electron/app/handlers/file-handlers.ts.
import { z } from 'zod';
import { command, type CommandsOfNamespace, EnvironmentId, Ok } from './common';

export const FileEntry = z.object({
  name: z.string(),
  path: z.string(),
  kind: z.enum(['file', 'directory', 'symlink', 'other']),
  size: z.number().nullable(),
  modifiedAtMs: z.number().nullable(),
  hidden: z.boolean(),
  /** The entry is a symbolic link; `kind`, size and time are its target's (a dangling one is `symlink`). */
  link: z.boolean().optional(),
});
export type FileEntry = z.infer<typeof FileEntry>;

export const FilePreview = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string(), truncated: z.boolean(), size: z.number() }),
  z.object({ kind: z.literal('image'), mime: z.string(), dataBase64: z.string(), size: z.number() }),
  z.object({ kind: z.literal('binary'), size: z.number() }),
  z.object({ kind: z.literal('tooLarge'), size: z.number(), limit: z.number() }),
]);
export type FilePreview = z.infer<typeof FilePreview>;

/**
 * What to do when an upload or a rename would replace an existing name: refuse (the default, so
 * nothing is replaced without the user's say), replace it, or keep both under a numbered name.
 */
export const IfExists = z.enum(['fail', 'replace', 'keepBoth']);
export type IfExists = z.infer<typeof IfExists>;

export const fileCommands = {
  'files.home': command(z.object({ envId: EnvironmentId }), z.object({ home: z.string(), cwd: z.string() })),
  'files.list': command(
    z.object({ envId: EnvironmentId, path: z.string().min(1), showHidden: z.boolean() }),
    /** `hiddenCount`: the dot-entries left out because `showHidden` was false. */
    z.object({
      path: z.string(),
      entries: z.array(FileEntry),
      hiddenCount: z.number().int().min(0).optional(),
    }),
  ),
  'files.stat': command(z.object({ envId: EnvironmentId, path: z.string().min(1) }), FileEntry),
  'files.preview': command(z.object({ envId: EnvironmentId, path: z.string().min(1) }), FilePreview),
  'files.mkdir': command(z.object({ envId: EnvironmentId, path: z.string().min(1) }), Ok),
  /** Renames `from` to `to`; an existing `to` is refused (code `conflict`) unless `ifExists` says otherwise. */
  'files.rename': command(
    z.object({
      envId: EnvironmentId,
      from: z.string().min(1),
      to: z.string().min(1),
      ifExists: IfExists.default('fail'),
    }),
    z.object({ ok: z.literal(true), path: z.string().optional() }),
  ),
  /** Which of `names` already exist in the folder `dir` (asked before uploading into it). */
  'files.existing': command(
    z.object({ envId: EnvironmentId, dir: z.string().min(1), names: z.array(z.string().min(1)).max(10_000) }),
    z.object({ names: z.array(z.string()) }),
  ),
  'files.delete': command(z.object({ envId: EnvironmentId, path: z.string().min(1) }), Ok),
  /** Creates an empty file at `path`; a taken name is refused (code `conflict`), never replaced. */
  'files.createFile': command(z.object({ envId: EnvironmentId, path: z.string().min(1) }), Ok),
  /** Copies `from` (a file or a folder) to `to`; a taken `to` is refused unless `ifExists` says otherwise. */
  'files.copy': command(
    z.object({
      envId: EnvironmentId,
      from: z.string().min(1),
      to: z.string().min(1),
      ifExists: IfExists.default('fail'),
    }),
    z.object({ ok: z.literal(true), path: z.string() }),
  ),
  /** Copies `path` beside itself under the first free numbered name ("a (1).txt"). */
  'files.duplicate': command(
    z.object({ envId: EnvironmentId, path: z.string().min(1) }),
    z.object({ ok: z.literal(true), path: z.string() }),
  ),
} as const satisfies CommandsOfNamespace<'files'>;
