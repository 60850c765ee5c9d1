// Lists a folder tree, local or on a server, as what a copy of it needs: the folders to create
// (empty ones too), the files with their sizes, and what cannot be copied with the reason. Paths are
// relative to the walked folder, "/"-separated. Shared by `tether cp -r` and the app's folder jobs.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
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
    for (const entry of await fs.readDirectory(dir)) {
      const name = prefix + entry.fileName;
      const from = path.posix.join(dir, entry.fileName);
      // readDirectory reports a link as what it points to; only the metadata tells it is a link.
      const needsMeta = entry.isFile || symlinks === 'report';
      const meta = needsMeta ? await fs.getMetadata(from).catch(() => null) : null;
      if (needsMeta && !meta) tree.skipped.push({ path: name, reason: DANGLING_LINK });
      else if (meta?.isSymlink && symlinks === 'report')
        tree.skipped.push({ path: name, reason: SYMLINK_SKIPPED });
      else if (entry.isDirectory) {
        tree.folders.push(name);
        await visit(from, `${name}/`);
      } else if (entry.isFile) tree.files.push({ path: name, size: meta!.size });
      else tree.skipped.push({ path: name, reason: NOT_REGULAR });
    }
  };
  await visit(root, '');
  return tree;
}
