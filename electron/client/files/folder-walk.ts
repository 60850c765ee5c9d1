// Lists a folder tree, local or on a server, as what a copy of it needs: the folders to create
// (empty ones too), the files with their sizes, and what cannot be copied with the reason. Paths are
// relative to the walked folder, "/"-separated. Shared by `tether cp -r` and the app's folder jobs.
// A server's listing is checked as it is read: names that cannot be local names are refused (and
// listed), and the tree's size is bounded (WALK_MAX_* in constants.ts).
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FsDirectoryEntry, FsMetadata } from '../../../shared/protocol';
import type { RemoteFileSystemApi } from '../api';
import { ClientError, isClientError } from '../client-error';
import { WALK_MAX_DEPTH, WALK_MAX_ENTRIES, WALK_MAX_ENTRIES_PER_FOLDER } from '../constants';
import { refusedEntryName, type NamePlatform } from './entry-names';
import { inParallel } from './in-parallel';
import { resendingAfterDrops } from '../link/resume-budget';

export interface FolderTree {
  /** Subfolders, each after its parent (the walked folder itself is not listed). */
  folders: string[];
  files: Array<{ path: string; size: number }>;
  /** Entries left out of the copy, with why. */
  skipped: Array<{ path: string; reason: string }>;
  /**
   * Entries of a server's listing whose names cannot become local names (refusedEntryName), with
   * why: never copied, never looked into, and always reported. `path` is the folder's path plus the
   * name exactly as the server sent it.
   */
  refused: Array<{ path: string; reason: string }>;
}

/** How much of a server's tree a walk believes (the defaults are WALK_MAX_* in constants.ts). */
export interface WalkLimits {
  entriesPerFolder: number;
  entries: number;
  depth: number;
}

export const WALK_LIMITS: WalkLimits = {
  entriesPerFolder: WALK_MAX_ENTRIES_PER_FOLDER,
  entries: WALK_MAX_ENTRIES,
  depth: WALK_MAX_DEPTH,
};

export interface RemoteWalkOptions {
  /** Whose file names apply to the names listed (process.platform unless a test says otherwise). */
  platform?: NamePlatform;
  limits?: WalkLimits;
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
  return { folders: [], files: [], skipped: [], refused: [] };
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

function tooLarge(root: string, what: string): ClientError {
  return new ClientError(
    'tooLarge',
    `${root} ${what}; nothing was copied. Copy a smaller part of it, or pack it into an archive on the server first.`,
  );
}

/**
 * Walks server folder `root` (an absolute POSIX path) under `symlinks`, level by level: a level's
 * folders are listed at once, then the metadata of its entries is asked for at once (a listing has
 * no sizes and reports a link as what it points to). Calls cut off by a reconnect are sent again.
 * A name that cannot be a local name goes to `refused`; a tree past `options.limits` fails the walk.
 */
export async function walkRemoteFolder(
  fs: RemoteFileSystemApi,
  root: string,
  symlinks: SymlinkPolicy,
  options: RemoteWalkOptions = {},
): Promise<FolderTree> {
  const platform = options.platform ?? process.platform;
  const limits = options.limits ?? WALK_LIMITS;
  const tree = emptyTree();
  const needsMeta = (e: FsDirectoryEntry): boolean => e.isFile || symlinks === 'report';
  let level = [{ dir: root, prefix: '' }];
  let seen = 0;
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > limits.depth) throw tooLarge(root, `is more than ${limits.depth} folders deep`);
    const listed: Array<{ dir: string; prefix: string; entries: FsDirectoryEntry[] }> = [];
    await inParallel(level, CALLS_IN_FLIGHT, async (folder, index) => {
      const entries = await resendingAfterDrops(`Listing ${folder.dir}`, () => fs.readDirectory(folder.dir));
      if (entries.length > limits.entriesPerFolder) {
        throw tooLarge(root, `has a folder (${folder.dir}) of more than ${limits.entriesPerFolder} entries`);
      }
      listed[index] = { ...folder, entries };
    });
    seen += listed.reduce((sum, { entries }) => sum + entries.length, 0);
    if (seen > limits.entries) throw tooLarge(root, `has more than ${limits.entries} entries`);
    const entries = listed.flatMap(({ dir, prefix, entries }) =>
      entries.flatMap((entry) => {
        const name = prefix + entry.fileName;
        const refused = refusedEntryName(entry.fileName, platform);
        if (refused) {
          tree.refused.push({ path: name, reason: refused });
          return [];
        }
        return [{ entry, from: path.posix.join(dir, entry.fileName), name }];
      }),
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
