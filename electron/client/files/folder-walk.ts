// Lists a folder tree, local or on a server, as what a copy of it needs: the folders to create
// (empty ones too), the files with their sizes, and what cannot be copied with the reason. Paths are
// relative to the walked folder, "/"-separated. Shared by `tether cp -r` and the app's folder jobs.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FsDirectoryEntry, FsMetadata } from '../../../shared/protocol';
import type { RemoteFileSystemApi } from '../api';
import { isClientError } from '../client-error';
import { inParallel } from './in-parallel';
import { resendingAfterDrops } from '../link/resume-budget';

export interface FolderTree {
  /** Subfolders, each after its parent (the walked folder itself is not listed). */
  folders: string[];
  files: Array<{ path: string; size: number }>;
  /** Entries left out of the copy, with why. */
  skipped: Array<{ path: string; reason: string }>;
}

/**
 * What to do with a symbolic link: follow it as `scp -r` and `cp -rL` do (the CLI), or leave it
 * out with a note (the app: a link may lead anywhere, and following it blindly copies that).
 */
export type SymlinkPolicy = 'follow' | 'report';

export const SYMLINK_SKIPPED = 'a symbolic link (left out: links are not followed)';
const DANGLING_LINK = 'a link that points nowhere';
const NOT_REGULAR = 'not a regular file';

function emptyTree(): FolderTree {
  return { folders: [], files: [], skipped: [] };
}

/** Entries of a folder asked about at once: listings and metadata of many small files. */
const CALLS_IN_FLIGHT = 32;

/** Walks local folder `root`; links are followed (the CLI's rule for local sources). */
export async function walkLocalFolder(root: string): Promise<FolderTree> {
  const tree = emptyTree();
  const visit = async (dir: string, prefix: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    const infos = await Promise.all(
      entries.map((entry) => stat(path.join(dir, entry.name)).catch(() => null)),
    );
    for (const [i, entry] of entries.entries()) {
      const name = prefix + entry.name;
      const info = infos[i];
      if (!info) tree.skipped.push({ path: name, reason: DANGLING_LINK });
      else if (info.isDirectory()) {
        tree.folders.push(name);
        await visit(path.join(dir, entry.name), `${name}/`);
      } else if (info.isFile()) tree.files.push({ path: name, size: info.size });
      else tree.skipped.push({ path: name, reason: NOT_REGULAR });
    }
  };
  await visit(root, '');
  return tree;
}

/**
 * Walks server folder `root` (an absolute POSIX path) under `symlinks`, level by level: a level's
 * folders are listed at once, then the metadata of its entries is asked for at once (a listing has
 * no sizes and reports a link as what it points to). Calls cut off by a reconnect are sent again.
 */
export async function walkRemoteFolder(
  fs: RemoteFileSystemApi,
  root: string,
  symlinks: SymlinkPolicy,
): Promise<FolderTree> {
  const tree = emptyTree();
  const needsMeta = (e: FsDirectoryEntry): boolean => e.isFile || symlinks === 'report';
  let level = [{ dir: root, prefix: '' }];
  while (level.length > 0) {
    const listed: Array<{ dir: string; prefix: string; entries: FsDirectoryEntry[] }> = [];
    await inParallel(level, CALLS_IN_FLIGHT, async (folder, index) => {
      const entries = await resendingAfterDrops(`Listing ${folder.dir}`, () => fs.readDirectory(folder.dir));
      listed[index] = { ...folder, entries };
    });
    const entries = listed.flatMap(({ dir, prefix, entries }) =>
      entries.map((entry) => ({
        entry,
        from: path.posix.join(dir, entry.fileName),
        name: prefix + entry.fileName,
      })),
    );
    const metas: Array<FsMetadata | null> = [];
    await inParallel(entries, CALLS_IN_FLIGHT, async ({ entry, from }, index) => {
      metas[index] = needsMeta(entry)
        ? await resendingAfterDrops(`Reading ${from}`, () => fs.getMetadata(from)).catch((error: unknown) => {
            if (isClientError(error, 'disconnected')) throw error;
            return null;
          })
        : null;
    });
    const below: typeof level = [];
    for (const [i, { entry, from, name }] of entries.entries()) {
      const meta = metas[i] ?? null;
      if (needsMeta(entry) && !meta) tree.skipped.push({ path: name, reason: DANGLING_LINK });
      else if (meta?.isSymlink && symlinks === 'report')
        tree.skipped.push({ path: name, reason: SYMLINK_SKIPPED });
      else if (entry.isDirectory) {
        tree.folders.push(name);
        below.push({ dir: from, prefix: `${name}/` });
      } else if (entry.isFile) tree.files.push({ path: name, size: meta!.size });
      else tree.skipped.push({ path: name, reason: NOT_REGULAR });
    }
    level = below;
  }
  return tree;
}
