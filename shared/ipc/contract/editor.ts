// The editor namespace: the editor's limits, an opened file and a save, and the commands of
// electron/app/handlers/editor-handlers.ts.
import { z } from 'zod';
import { command, type CommandsOfNamespace, EnvironmentId, Ok } from './common';

/**
 * The editor's limits, shared by both sides. A file up to EDITOR_OPEN_LIMIT_BYTES opens for editing;
 * a larger one only as a read-only preview of its start. A save may be a little larger than what was
 * opened (typing adds). The web host takes messages up to 4 MiB, so a save larger than one
 * EDITOR_SAVE_CHUNK_BYTES travels in chunks (editor.beginSave, editor.saveChunk, then editor.save).
 */
export const EDITOR_OPEN_LIMIT_BYTES = 5 * 1_048_576;
export const EDITOR_SAVE_LIMIT_BYTES = Math.floor(5.5 * 1_048_576);
export const EDITOR_SAVE_CHUNK_BYTES = 512 * 1024;
/** The base64 length of one chunk: the most one editor.save or editor.saveChunk carries inline. */
const EDITOR_CHUNK_BASE64_CHARS = Math.ceil(EDITOR_SAVE_CHUNK_BYTES / 3) * 4;

/** What the editor remembers of a file as it read or wrote it, to notice a change on the server. */
export const EditVersion = z.object({
  size: z.number().int().min(0),
  modifiedAtMs: z.number().nullable(),
  /** SHA-256 of the file's bytes, hex: what decides whether the file changed. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type EditVersion = z.infer<typeof EditVersion>;

/**
 * A file opened for the editor: editable UTF-8 text (a byte-order mark kept aside), the read-only
 * start of a file too large to edit, or a file that is not text at all — each with the reason.
 */
export const EditorFile = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('text'),
    /** The file that is edited and saved: the opened path with symlinks resolved. */
    path: z.string(),
    text: z.string(),
    bom: z.boolean(),
    version: EditVersion,
  }),
  z.object({
    kind: z.literal('preview'),
    path: z.string(),
    text: z.string(),
    size: z.number(),
    reason: z.string(),
  }),
  z.object({ kind: z.literal('binary'), path: z.string(), size: z.number(), reason: z.string() }),
]);
export type EditorFile = z.infer<typeof EditorFile>;

/**
 * How a save treats the file on the server: write only if it is still what was opened
 * (`ifUnchanged`), replace whatever is there (`overwrite`), write it again after it was deleted
 * without replacing one that reappeared (`recreate`), or write a numbered copy beside it (`copy`).
 */
export const EditorSaveMode = z.enum(['ifUnchanged', 'overwrite', 'recreate', 'copy']);
export type EditorSaveMode = z.infer<typeof EditorSaveMode>;

export const EditorSaveResult = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('saved'), path: z.string(), version: EditVersion }),
  /** The file changed on the server since it was opened: nothing was written; `theirs` is it now. */
  z.object({ kind: z.literal('conflict'), theirs: EditorFile }),
  /** The file is gone from the server: nothing was written. */
  z.object({ kind: z.literal('deleted') }),
]);
export type EditorSaveResult = z.infer<typeof EditorSaveResult>;

export const editorCommands = {
  /** Reads a file for the editor (text, a read-only preview, or the reason it cannot be edited). */
  'editor.open': command(z.object({ envId: EnvironmentId, path: z.string().min(1) }), EditorFile),
  /** Writes the editor's bytes, staged and renamed into place; `mode` says what may be replaced. */
  'editor.save': command(
    z.object({
      envId: EnvironmentId,
      path: z.string().min(1),
      /** The whole file, when it fits one chunk; empty when the bytes came with editor.saveChunk. */
      dataBase64: z.string().max(EDITOR_CHUNK_BASE64_CHARS).default(''),
      mode: EditorSaveMode,
      /** What was opened (or last saved); required for `ifUnchanged`. */
      base: EditVersion.nullable().default(null),
      /** The chunked save (editor.beginSave) whose bytes this saves, all of them sent. */
      saveId: z.string().nullable().default(null),
    }),
    EditorSaveResult,
  ),
  /** Starts gathering a save too large for one message; its bytes follow with editor.saveChunk. */
  'editor.beginSave': command(
    z.object({ envId: EnvironmentId, totalBytes: z.number().int().min(0).max(EDITOR_SAVE_LIMIT_BYTES) }),
    z.object({ saveId: z.string() }),
  ),
  /** The next bytes of a chunked save, in order; they reach the server only with editor.save. */
  'editor.saveChunk': command(
    z.object({
      saveId: z.string(),
      offset: z.number().int().min(0),
      dataBase64: z.string().max(EDITOR_CHUNK_BASE64_CHARS),
    }),
    Ok,
  ),
} as const satisfies CommandsOfNamespace<'editor'>;
