// The editor's side of a file on the server: reading it for editing (UTF-8 text with its version,
// the read-only start of a file too large to edit, or why it is not text) and saving it staged and
// renamed into place like an upload, only while the file is still what the editor last read.
import { createHash } from 'node:crypto';
import {
  EDITOR_OPEN_LIMIT_BYTES,
  type EditorFile,
  type EditorSaveMode,
  type EditorSaveResult,
  type EditVersion,
} from '../../../shared/ipc';
import type { ExecServerClientApi, RemoteFileSystemApi } from '../../client/api';
import { isClientError } from '../../client/client-error';
import { AppError } from '../app-error';
import { freeName } from './existing-target';
import { readHead } from './file-service';
import { PREVIEW_TEXT_LIMIT_BYTES } from '../limits';
import type { TrackCleanup } from './transfer-queue';
import { runStagedUpload } from './upload-job';

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;
/** NUL bytes in this much of the start mark a file as binary (as git and grep decide). */
const BINARY_PROBE_BYTES = 8192;

export async function openForEdit(fs: RemoteFileSystemApi, requested: string): Promise<EditorFile> {
  // The staged rename of a save replaces the name it is given: edit the link's target, not the link.
  const path = await fs.canonicalize(requested).catch(() => requested);
  const meta = await fs.getMetadata(path);
  if (meta.isDirectory) throw new AppError('invalidInput', `${requested} is a folder, not a file to edit.`);
  if (meta.size > EDITOR_OPEN_LIMIT_BYTES) {
    const head = await readHead(fs, path, meta.size, PREVIEW_TEXT_LIMIT_BYTES);
    if (hasNul(head)) return binary(path, meta.size, 'it contains NUL bytes');
    return {
      kind: 'preview',
      path,
      // `stream` leaves out a character cut in half at the end of the preview.
      text: new TextDecoder('utf-8').decode(head, { stream: true }),
      size: meta.size,
      reason: `It is larger than the editor's limit of ${sizeText(EDITOR_OPEN_LIMIT_BYTES)}: this is its first ${sizeText(PREVIEW_TEXT_LIMIT_BYTES)}, read-only. Download it to edit it locally.`,
    };
  }
  const data = await fs.readFile(path);
  if (hasNul(data)) return binary(path, data.byteLength, 'it contains NUL bytes');
  const bom = UTF8_BOM.every((byte, i) => data[i] === byte);
  let text: string;
  try {
    // ignoreBOM: the mark was looked at above and is sliced off here, so it is never decoded twice.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(data.subarray(bom ? 3 : 0));
  } catch {
    return binary(path, data.byteLength, 'it is not valid UTF-8 text');
  }
  return { kind: 'text', path, text, bom, version: versionOf(data, meta.modifiedAtMs) };
}

export interface SaveRequest {
  path: string;
  data: Uint8Array;
  mode: EditorSaveMode;
  base: EditVersion | null;
}

export async function saveEdited(
  client: ExecServerClientApi,
  request: SaveRequest,
  cleanup: TrackCleanup,
): Promise<EditorSaveResult> {
  const { path, data, mode } = request;
  switch (mode) {
    case 'overwrite':
      return write(client, path, data, true, cleanup);
    case 'copy':
      return write(client, await freeName(client.fs, path), data, false, cleanup);
    case 'recreate':
      try {
        return await write(client, path, data, false, cleanup);
      } catch (error) {
        // Someone made the file again meanwhile: theirs is not replaced unasked.
        if (!isClientError(error, 'exists')) throw error;
        const theirs = await currentFile(client.fs, path);
        if (!theirs) throw error;
        return { kind: 'conflict', theirs };
      }
    case 'ifUnchanged': {
      const { base } = request;
      if (!base) throw new AppError('invalidInput', 'A save that checks for changes needs a base.');
      // Staged first, checked last: the file on the server is compared with what was opened right
      // before the rename, so a change made while a large save was uploading is still caught. A write
      // landing between the check and the rename is not: the protocol has no compare-and-swap.
      return stageThen(client, path, data, cleanup, async (staged) => {
        const theirs = await currentFile(client.fs, path);
        const current = theirs?.kind === 'text' ? theirs.version : null;
        const mine = sha256(data);
        const settled: EditorSaveResult | null = !theirs
          ? { kind: 'deleted' }
          : current?.sha256 === mine
            ? { kind: 'saved', path, version: current }
            : current?.sha256 !== base.sha256
              ? { kind: 'conflict', theirs }
              : null;
        if (settled) {
          // Not put in place: what was staged goes now (a failure here is cleaned up as any other).
          await client.fs.remove(staged, { recursive: false, force: true });
          return settled;
        }
        return placed(client, staged, path, data, true);
      });
    }
  }
}

function write(
  client: ExecServerClientApi,
  path: string,
  data: Uint8Array,
  overwrite: boolean,
  cleanup: TrackCleanup,
): Promise<EditorSaveResult> {
  return stageThen(client, path, data, cleanup, (staged) => placed(client, staged, path, data, overwrite));
}

/** Uploads `data` to a staging file beside `path`, then lets `finish` place it (see runStagedUpload). */
function stageThen(
  client: ExecServerClientApi,
  path: string,
  data: Uint8Array,
  cleanup: TrackCleanup,
  finish: (staged: string) => Promise<EditorSaveResult>,
): Promise<EditorSaveResult> {
  const run = {
    client,
    remotePath: path,
    totalBytes: data.byteLength,
    overwrite: false,
    source: once(data),
    signal: new AbortController().signal,
    progress: () => undefined,
    cleanup,
  };
  return runStagedUpload(run, finish);
}

async function placed(
  client: ExecServerClientApi,
  staged: string,
  path: string,
  data: Uint8Array,
  overwrite: boolean,
): Promise<EditorSaveResult> {
  await client.fs.placeStaged(staged, path, { overwrite });
  const meta = await client.fs.getMetadata(path);
  return { kind: 'saved', path, version: versionOf(data, meta.modifiedAtMs) };
}

/** The file at `path` as the editor would open it now, or null when nothing is there. */
async function currentFile(fs: RemoteFileSystemApi, path: string): Promise<EditorFile | null> {
  try {
    return await openForEdit(fs, path);
  } catch (error) {
    if (isClientError(error, 'rpc') && !(await fs.exists(path))) return null;
    throw error;
  }
}

function versionOf(data: Uint8Array, modifiedAtMs: number): EditVersion {
  return { size: data.byteLength, modifiedAtMs: modifiedAtMs || null, sha256: sha256(data) };
}

function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

function hasNul(data: Uint8Array): boolean {
  return data.subarray(0, BINARY_PROBE_BYTES).includes(0);
}

function binary(path: string, size: number, why: string): EditorFile {
  return { kind: 'binary', path, size, reason: `This file cannot be edited: ${why}. Download it instead.` };
}

/** A limit as the user reads it ("2 MiB", "256 KiB"); the limits are whole units. */
function sizeText(bytes: number): string {
  return bytes >= 1_048_576 ? `${bytes / 1_048_576} MiB` : `${bytes / 1024} KiB`;
}

async function* once(data: Uint8Array): AsyncGenerator<Uint8Array> {
  yield data;
}
