// One folder download: walks the server folder (symlinks left out with a note), asks the host for a
// destination (a local folder, or a zip for the browser), reports the names already taken there so
// the user can answer them, and then copies the tree file by file with per-file progress. In a tree
// a failed file is reported and the others go on; a zip stops at the first, since it would be cut.
// Names the server listed that cannot be local names are refused: listed, never written, and the
// transfer ends failed once the rest has arrived, so the user sees what is missing.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { ConflictAnswer, IfExists, TransferFileView } from '../../../shared/ipc';
import { errorMessage } from '../../../shared/error-message';
import type { RemoteFileSystemApi } from '../../client/api';
import { checkEntryName } from '../../client/files/entry-names';
import { walkRemoteFolder, type FolderTree } from '../../client/files/folder-walk';
import { resendingAfterDrops } from '../../client/link/resume-budget';
import { AppError } from '../app-error';
import { baseName } from './file-service';
import type { DownloadHost, FolderDownloadTarget } from '../host-services';
import type { FileReport, TransferJob } from './transfer-queue';

export interface PreparedFolderDownload {
  name: string;
  totalBytes: number;
  url: string | null;
  /** Files (paths inside the folder) whose names are taken at the destination. */
  taken: string[];
  /** The transfer once `answers` (for the taken names; a missing one skips) are known; null when declined. */
  start:
    ((answers: Record<string, ConflictAnswer>) => { files: TransferFileView[]; job: TransferJob }) | null;
}

const KEPT_EXISTING = 'kept the existing file';
const REFUSED_NOTE = 'refused, not downloaded';

/** What the transfer says about the names it refused, or null when there were none. */
function refusedNames(refused: FolderTree['refused']): string | null {
  const first = refused[0];
  if (!first) return null;
  const count = refused.length === 1 ? '1 name' : `${refused.length} names`;
  return (
    `The server listed ${count} that cannot be used on this machine, so they were not downloaded ` +
    `(first: "${first.path}": ${first.reason})`
  );
}

export async function prepareFolderDownload(
  fs: RemoteFileSystemApi,
  remotePath: string,
  host: DownloadHost,
): Promise<PreparedFolderDownload> {
  // A read: asked again after a drop that cut it off, as the walk's own reads are.
  const meta = await resendingAfterDrops(`Reading ${remotePath}`, () => fs.getMetadata(remotePath));
  if (!meta.isDirectory) throw new AppError('invalidInput', `${remotePath} is not a folder.`);
  const name = baseName(remotePath);
  checkEntryName(name);
  const tree = await walkRemoteFolder(fs, remotePath, 'report');
  const totalBytes = tree.files.reduce((sum, f) => sum + f.size, 0);
  const cancel = new AbortController();
  const prepared = await host.beginFolder({ name, size: totalBytes, signal: cancel.signal });
  if (!prepared) return { name, totalBytes, url: null, taken: [], start: null };
  const target = await prepared.target;
  const taken = await target.taken(tree.files.map((f) => f.path));
  return {
    name,
    totalBytes,
    url: prepared.url,
    taken,
    start: (answers) => {
      const takenSet = new Set(taken);
      const choiceOf = (file: string): IfExists | 'skip' =>
        takenSet.has(file) ? (answers[file] ?? 'skip') : 'fail';
      const plan = tree.files.map((f) => ({ ...f, choice: choiceOf(f.path) }));
      const files: TransferFileView[] = [
        ...plan.map((f) => ({
          path: f.path,
          totalBytes: f.choice === 'skip' ? 0 : f.size,
          doneBytes: 0,
          state: f.choice === 'skip' ? ('skipped' as const) : ('queued' as const),
          note: f.choice === 'skip' ? KEPT_EXISTING : null,
        })),
        ...tree.skipped.map((s) => ({
          path: s.path,
          totalBytes: 0,
          doneBytes: 0,
          state: 'skipped' as const,
          note: s.reason,
        })),
        ...tree.refused.map((r) => ({
          path: r.path,
          totalBytes: 0,
          doneBytes: 0,
          state: 'failed' as const,
          note: `${REFUSED_NOTE}: ${r.reason}`,
        })),
      ];
      return {
        files,
        job: {
          run: async (signal, _progress, _cleanup, report) => {
            signal.addEventListener('abort', () => cancel.abort(), { once: true });
            // Refused names end the transfer failed once the rest is in, so nobody misses them.
            const refused = refusedNames(tree.refused);
            try {
              await copyTree(fs, remotePath, tree, plan, target, signal, report);
            } catch (error) {
              if (!refused || signal.aborted) throw error;
              throw new AppError('remote', `${errorMessage(error)}. ${refused}.`);
            }
            if (refused) throw new AppError('remote', `${refused}; everything else arrived.`);
          },
        },
      };
    },
  };
}

async function copyTree(
  fs: RemoteFileSystemApi,
  remotePath: string,
  tree: FolderTree,
  plan: Array<{ path: string; size: number; choice: IfExists | 'skip' }>,
  target: FolderDownloadTarget,
  signal: AbortSignal,
  report: FileReport,
): Promise<void> {
  try {
    for (const folder of ['', ...tree.folders]) await target.createFolder(folder);
    const failed: string[] = [];
    for (const [index, file] of plan.entries()) {
      if (file.choice === 'skip') continue;
      signal.throwIfAborted();
      report(index, { state: 'running' });
      try {
        await copyFile(fs, path.posix.join(remotePath, file.path), file, target, signal, (doneBytes) =>
          report(index, { doneBytes }),
        );
        report(index, { state: 'done', doneBytes: file.size });
      } catch (error) {
        if (signal.aborted || !target.filesIndependent) throw error;
        report(index, { state: 'failed', note: errorMessage(error) });
        failed.push(`${file.path}: ${errorMessage(error)}`);
      }
    }
    if (failed.length > 0) {
      throw new AppError(
        'remote',
        `${failed.length} of ${plan.length} files did not arrive (first: ${failed[0]})`,
      );
    }
    await target.finish();
  } catch (error) {
    target.abort(errorMessage(error));
    throw error;
  }
}

async function copyFile(
  fs: RemoteFileSystemApi,
  from: string,
  file: { path: string; size: number; choice: IfExists | 'skip' },
  target: FolderDownloadTarget,
  signal: AbortSignal,
  progress: (doneBytes: number) => void,
): Promise<void> {
  const out = await target.file(file.path, file.size, file.choice === 'skip' ? 'fail' : file.choice);
  let done = 0;
  try {
    await fs.readStream(
      from,
      async (chunk) => {
        await out.write(chunk);
        done += chunk.byteLength;
        progress(done);
      },
      { signal, expectedBytes: file.size },
    );
    // A cancel that landed while the last block was in flight must not put the file in place.
    signal.throwIfAborted();
    await out.finish();
  } catch (error) {
    out.abort(errorMessage(error));
    throw error;
  }
}

/** A prepared folder download waiting for the user's answers, for DOWNLOAD_URL_TTL_MS at most. */
export interface PendingFolderDownload {
  envId: string;
  remotePath: string;
  prepared: PreparedFolderDownload;
}

/** The folder downloads waiting for answers about taken names, by plan id; each expires. */
export class PendingFolderDownloads {
  private readonly waiting = new Map<string, { pending: PendingFolderDownload; timer: NodeJS.Timeout }>();

  constructor(private readonly ttlMs: number) {}

  add(pending: PendingFolderDownload): string {
    const id = randomUUID();
    const timer = setTimeout(() => this.waiting.delete(id), this.ttlMs);
    timer.unref();
    this.waiting.set(id, { pending, timer });
    return id;
  }

  /** Takes the plan out (it is answered once). */
  take(id: string): PendingFolderDownload {
    const entry = this.waiting.get(id);
    if (!entry)
      throw new AppError('notFound', 'This folder download expired or was already answered; start it again.');
    clearTimeout(entry.timer);
    this.waiting.delete(id);
    return entry.pending;
  }
}
