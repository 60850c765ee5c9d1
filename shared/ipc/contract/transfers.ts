// The transfers namespace: uploads and downloads of files and folders, and the commands of
// electron/app/handlers/transfer-handlers.ts.
import { z } from 'zod';
import {
  command,
  type CommandsOfNamespace,
  Empty,
  EnvironmentId,
  type EventsOfNamespace,
  Ok,
} from './common';
import { IfExists } from './files';

/** One file of a folder transfer, with its path inside the folder ("/"-separated). */
export const TransferFileView = z.object({
  path: z.string(),
  totalBytes: z.number(),
  doneBytes: z.number(),
  /** `skipped`: left out on purpose (the user kept the existing file, or a symlink); `note` says why. */
  state: z.enum(['queued', 'running', 'done', 'failed', 'skipped', 'cancelled']),
  note: z.string().nullable(),
});
export type TransferFileView = z.infer<typeof TransferFileView>;

export const TransferView = z.object({
  id: z.string(),
  envId: EnvironmentId,
  direction: z.enum(['upload', 'download']),
  remotePath: z.string(),
  name: z.string(),
  totalBytes: z.number().nullable(),
  doneBytes: z.number(),
  /** Bytes per second over the recent window. */
  rate: z.number(),
  state: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  error: z.string().nullable(),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  /** A folder transfer: each of its files (doneBytes and totalBytes are their sums); else absent. */
  files: z.array(TransferFileView).optional(),
});
export type TransferView = z.infer<typeof TransferView>;

/** A choice for one taken name of a folder transfer ("skip" keeps what is there). */
export const ConflictAnswer = z.enum(['replace', 'keepBoth', 'skip']);
export type ConflictAnswer = z.infer<typeof ConflictAnswer>;

/** Paths inside a folder transfer ("/"-separated, relative, no "." or ".." segments). */
const RelativePath = z
  .string()
  .min(1)
  .max(4096)
  .refine(
    (p) => !p.startsWith('/') && p.split('/').every((part) => part !== '' && part !== '.' && part !== '..'),
    {
      message: 'must be a relative path without empty, "." or ".." parts',
    },
  );

/** What a folder upload brings: its subfolders (parents first), files, and what the user left out. */
export const FolderUploadPlan = z.object({
  folders: z.array(RelativePath).max(100_000),
  files: z
    .array(
      z.object({ path: RelativePath, size: z.number().int().min(0), ifExists: IfExists.default('fail') }),
    )
    .max(100_000),
  skipped: z.array(z.object({ path: RelativePath, reason: z.string().max(500) })).max(100_000),
});
export type FolderUploadPlan = z.infer<typeof FolderUploadPlan>;

export const transferCommands = {
  /** Starts an upload; the renderer then sends chunks in order with `transfers.uploadChunk`. */
  'transfers.startUpload': command(
    z.object({
      envId: EnvironmentId,
      remotePath: z.string().min(1),
      totalBytes: z.number().int().min(0),
      /** An existing file at remotePath fails the upload unless this says replace or keep both. */
      ifExists: IfExists.default('fail'),
    }),
    TransferView,
  ),
  /**
   * Starts a folder upload to `remotePath` (the folder itself, created if missing): subfolders are
   * created, then the files arrive one after another, in plan order, with `transfers.uploadChunk`.
   */
  'transfers.startFolderUpload': command(
    z.object({ envId: EnvironmentId, remotePath: z.string().min(1), plan: FolderUploadPlan }),
    TransferView,
  ),
  'transfers.uploadChunk': command(
    z.object({
      id: z.string(),
      /** Which file of a folder upload (its index in the plan); 0 for a single file. */
      file: z.number().int().min(0).default(0),
      offset: z.number().int().min(0),
      dataBase64: z.string().max(2_000_000),
      last: z.boolean(),
    }),
    Ok,
  ),
  /**
   * Starts a download. In Electron the host asks for a destination with a save dialog; in web mode
   * the response carries a one-time URL the browser downloads from.
   */
  'transfers.startDownload': command(
    z.object({ envId: EnvironmentId, remotePath: z.string().min(1) }),
    z.object({ transfer: TransferView, url: z.string().nullable() }),
  ),
  /**
   * Starts a folder download: in Electron into a folder the user picks (as a tree), in web mode as
   * a zip from a one-time URL. Names already taken in the local destination come back in `taken`
   * with a `planId` and nothing is written until `transfers.confirmFolderDownload` answers them.
   */
  'transfers.startFolderDownload': command(
    z.object({ envId: EnvironmentId, remotePath: z.string().min(1) }),
    z.object({
      transfer: TransferView.nullable(),
      url: z.string().nullable(),
      taken: z.array(z.string()),
      planId: z.string().nullable(),
    }),
  ),
  /** Answers the taken names of a folder download (a name left out is skipped) and queues it. */
  'transfers.confirmFolderDownload': command(
    z.object({ planId: z.string(), answers: z.record(z.string(), ConflictAnswer) }),
    z.object({ transfer: TransferView, url: z.string().nullable() }),
  ),
  'transfers.list': command(Empty, z.array(TransferView)),
  'transfers.cancel': command(z.object({ id: z.string() }), Ok),
  'transfers.clearFinished': command(Empty, Ok),
} as const satisfies CommandsOfNamespace<'transfers'>;

export const transferEvents = {
  'transfers.changed': TransferView,
} as const satisfies EventsOfNamespace<'transfers'>;
