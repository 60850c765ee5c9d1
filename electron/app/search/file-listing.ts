// The files of a workspace for Quick open, listed on the host: `rg --files`, else `git ls-files`,
// else `find`, each NUL-separated (a name may hold a newline), else a bounded walk over the file
// system API. Bounded by count, depth and time; cached per environment and root until a refresh.
import type { WorkspaceFiles } from '../../../shared/ipc';
import type { ExecServerClientApi, RemoteFileSystemApi } from '../../client/api';
import {
  QUICK_OPEN_CACHED_ROOTS,
  QUICK_OPEN_MAX_DEPTH,
  QUICK_OPEN_MAX_FILES,
  QUICK_OPEN_TIMEOUT_MS,
  QUICK_OPEN_WALK_CONCURRENCY,
} from '../limits';
import { MissingProgramError, runHostCommand } from './host-command';
import type { HostTools } from './host-tools';
import { inSkippedFolder, rgSkipGlobs, SKIPPED_FOLDERS } from './skipped-folders';

export type ListingSource = WorkspaceFiles['source'];
export type ListingLimits = { maxFiles: number; maxDepth: number; timeoutMs: number };

export const QUICK_OPEN_LIMITS: ListingLimits = {
  maxFiles: QUICK_OPEN_MAX_FILES,
  maxDepth: QUICK_OPEN_MAX_DEPTH,
  timeoutMs: QUICK_OPEN_TIMEOUT_MS,
};

/** The argv that lists the files below the working directory, NUL-separated. */
export function listingArgv(source: Exclude<ListingSource, 'walk'>, maxDepth: number): string[] {
  switch (source) {
    case 'rg':
      return [
        'rg',
        '--files',
        '--null',
        '--no-config',
        '--hidden',
        '--max-depth',
        String(maxDepth),
        ...rgSkipGlobs(),
        '.',
      ];
    case 'git':
      return ['git', 'ls-files', '-z', '--cached', '--others', '--exclude-standard'];
    case 'find': {
      const pruned = SKIPPED_FOLDERS.flatMap((name, i) =>
        i === 0 ? ['-name', name] : ['-o', '-name', name],
      );
      return [
        'find',
        '.',
        '-maxdepth',
        String(maxDepth),
        '(',
        ...pruned,
        ')',
        '-prune',
        '-o',
        '-type',
        'f',
        '-print0',
      ];
    }
  }
}

/**
 * Splits NUL-terminated paths out of a stream of chunks; what follows the last NUL waits for the
 * next chunk. Names are decoded as UTF-8 and a leading "./" is dropped.
 */
export class NulSeparatedPaths {
  private pending: Uint8Array = new Uint8Array(0);
  private readonly decoder = new TextDecoder();

  push(chunk: Uint8Array): string[] {
    const data = this.pending.byteLength ? Buffer.concat([this.pending, chunk]) : chunk;
    const paths: string[] = [];
    let start = 0;
    for (let i = data.indexOf(0); i !== -1; i = data.indexOf(0, start)) {
      const path = this.decoder.decode(data.subarray(start, i));
      start = i + 1;
      const relative = path.startsWith('./') ? path.slice(2) : path;
      if (relative) paths.push(relative);
    }
    this.pending = data.slice(start);
    return paths;
  }
}

function depthOf(relativePath: string): number {
  let depth = 1;
  for (const c of relativePath) if (c === '/') depth++;
  return depth;
}

/** Lists with one host program; null when that program is missing or fails (the next one is tried). */
async function listWith(
  client: ExecServerClientApi,
  source: Exclude<ListingSource, 'walk'>,
  root: string,
  limits: ListingLimits,
): Promise<{ files: string[]; truncated: boolean } | null> {
  const files: string[] = [];
  const splitter = new NulSeparatedPaths();
  let full = false;
  const result = await runHostCommand(client, {
    argv: listingArgv(source, limits.maxDepth),
    cwd: root,
    timeoutMs: limits.timeoutMs,
    onStdout: (chunk) => {
      for (const path of splitter.push(chunk)) {
        // git lists the whole tree (and committed dependency folders): the same bounds as the others.
        if (source === 'git' && (depthOf(path) > limits.maxDepth || inSkippedFolder(path))) continue;
        if (files.length >= limits.maxFiles) {
          full = true;
          return false;
        }
        files.push(path);
      }
      return true;
    },
  });
  if (result.stopped === 'timeout') return { files, truncated: true };
  // rg exits 1 when it found no file at all: an empty folder, not a failure.
  if (source === 'rg' && result.exitCode === 1 && files.length === 0) return { files, truncated: false };
  // rg exits 2 when some files were unreadable but still lists the rest; anything else failed.
  if (result.exitCode !== 0 && !(source === 'rg' && result.exitCode === 2 && files.length > 0) && !full)
    return null;
  return { files, truncated: full };
}

/** The fallback without any helper program: a breadth-first walk with the file system API. */
export async function walkFiles(
  fs: RemoteFileSystemApi,
  root: string,
  limits: ListingLimits,
): Promise<{ files: string[]; truncated: boolean }> {
  const deadline = Date.now() + limits.timeoutMs;
  const files: string[] = [];
  let level = [''];
  let truncated = false;
  for (let depth = 1; level.length > 0; depth++) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += QUICK_OPEN_WALK_CONCURRENCY) {
      if (Date.now() > deadline || files.length >= limits.maxFiles) return { files, truncated: true };
      const batch = level.slice(i, i + QUICK_OPEN_WALK_CONCURRENCY);
      const listings = await Promise.all(
        batch.map((dir) =>
          fs.readDirectory(dir ? `${root.replace(/\/$/, '')}/${dir}` : root).catch(() => []),
        ),
      );
      listings.forEach((entries, j) => {
        for (const entry of entries) {
          const path = batch[j] ? `${batch[j]}/${entry.fileName}` : entry.fileName;
          if (entry.isDirectory) {
            if (SKIPPED_FOLDERS.includes(entry.fileName)) continue;
            if (depth < limits.maxDepth) next.push(path);
            else truncated = true;
          } else if (entry.isFile) {
            if (files.length >= limits.maxFiles) truncated = true;
            else files.push(path);
          }
        }
      });
    }
    level = next;
  }
  return { files, truncated };
}

/** Lists `root` with the first tool the host has that works there, ending with the walk. */
export async function listWorkspaceFiles(
  client: ExecServerClientApi,
  tools: HostTools,
  root: string,
  limits: ListingLimits = QUICK_OPEN_LIMITS,
  sources: readonly ListingSource[] = ['rg', 'git', 'find', 'walk'],
): Promise<Omit<WorkspaceFiles, 'root' | 'listedAt'>> {
  for (const source of sources) {
    if (source === 'walk') return { ...(await walkFiles(client.fs, root, limits)), source };
    if (tools.known(source) === false) continue;
    try {
      const listed = await listWith(client, source, root, limits);
      tools.found(source, true);
      if (listed) return { ...listed, source };
    } catch (error) {
      if (!(error instanceof MissingProgramError)) throw error;
      tools.found(source, false);
    }
  }
  return { files: [], truncated: false, source: 'walk' };
}

/** The listings of one environment, by root, least recently used first; one listing at a time per root. */
export class WorkspaceFileCache {
  private readonly byRoot = new Map<string, Promise<WorkspaceFiles>>();

  get(
    root: string,
    refresh: boolean,
    list: () => Promise<Omit<WorkspaceFiles, 'root' | 'listedAt'>>,
  ): Promise<WorkspaceFiles> {
    const cached = this.byRoot.get(root);
    this.byRoot.delete(root);
    const listing =
      cached && !refresh ? cached : list().then((listed) => ({ ...listed, root, listedAt: Date.now() }));
    this.byRoot.set(root, listing);
    // A failed listing is not kept: the next ask tries again.
    listing.catch(() => {
      if (this.byRoot.get(root) === listing) this.byRoot.delete(root);
    });
    while (this.byRoot.size > QUICK_OPEN_CACHED_ROOTS) this.byRoot.delete(this.byRoot.keys().next().value!);
    return listing;
  }
}
