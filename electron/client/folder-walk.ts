// Lists a folder tree, local or on a server, as what a copy of it needs: the folders to create
// (empty ones too), the files with their sizes, and what cannot be copied with the reason. Paths are
// relative to the walked folder, "/"-separated. Shared by `tether cp -r` and the app's folder jobs.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FsDirectoryEntry, FsMetadata } from '../../shared/protocol';
import type { RemoteFileSystemApi } from './api';

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

/** Metadata requests of one folder's entries in flight at once. */
const METADATA_CONCURRENCY = 16;

export const SYMLINK_SKIPPED = 'a symbolic link (left out: links are not followed)';
const DANGLING_LINK = 'a link that points nowhere';
const NOT_REGULAR = 'not a regular file';

function emptyTree(): FolderTree {
  return { folders: [], files: [], skipped: [] };
}

/** Walks local folder `root`; links are followed (the CLI's rule for local sources). */
export async function walkLocalFolder(root: string): Promise<FolderTree> {
  const tree = emptyTree();
  const visit = async (dir: string, prefix: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const name = prefix + entry.name;
      const info = await stat(path.join(dir, entry.name)).catch(() => null);
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

/** Walks server folder `root` (an absolute POSIX path) under `symlinks`. */
export async function walkRemoteFolder(
  fs: RemoteFileSystemApi,
  root: string,
  symlinks: SymlinkPolicy,
): Promise<FolderTree> {
  const tree = emptyTree();
  const visit = async (dir: string, prefix: string): Promise<void> => {
    const entries = await fs.readDirectory(dir);
    // readDirectory reports a link as what it points to; only the metadata tells it is a link.
    const needsMeta = (e: FsDirectoryEntry): boolean => e.isFile || symlinks === 'report';
    // Asked several at a time: a folder of many small files is not one round trip per entry.
    const metas = await mapBounded(entries, METADATA_CONCURRENCY, async (e): Promise<FsMetadata | null> =>
      needsMeta(e) ? fs.getMetadata(path.posix.join(dir, e.fileName)).catch(() => null) : null,
    );
    for (const [i, entry] of entries.entries()) {
      const name = prefix + entry.fileName;
      const meta = metas[i] ?? null;
      if (needsMeta(entry) && !meta) tree.skipped.push({ path: name, reason: DANGLING_LINK });
      else if (meta?.isSymlink && symlinks === 'report')
        tree.skipped.push({ path: name, reason: SYMLINK_SKIPPED });
      else if (entry.isDirectory) {
        tree.folders.push(name);
        await visit(path.posix.join(dir, entry.fileName), `${name}/`);
      } else if (entry.isFile) tree.files.push({ path: name, size: meta!.size });
      else tree.skipped.push({ path: name, reason: NOT_REGULAR });
    }
  };
  await visit(root, '');
  return tree;
}

/** `work` over `items`, at most `limit` at a time, results in the items' order. */
async function mapBounded<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
