// The stateless filesystem methods (fs/readFile … fs/walk, fs/rename) with codex's defaults,
// validation messages and OS-error mapping.
import {
  chmod,
  chown,
  cp,
  link,
  lstat,
  mkdir,
  open,
  readdir,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import {
  FsErrorKind,
  type FsCopyParams,
  type FsCreateDirectoryParams,
  type FsDirectoryEntry,
  type FsMetadata,
  type FsRemoveParams,
  type FsRenameParams,
  type FsWalkParams,
  type FsWalkResult,
  type FsWriteFileParams,
} from '../../../shared/protocol';
import { decodeBase64Strict } from '../rpc/base64';
import { MAX_READ_FILE_BYTES } from '../limits';
import { errnoCode, toFsRpcError } from './os-error';
import { pathToUri, uriToPath } from './path-uri';
import { RpcError } from '../rpc/rpc-error';

async function osCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toFsRpcError(error);
  }
}

function readFileTooLarge(file: string, size: string): RpcError {
  return RpcError.limitExceeded(
    'readFileBytes',
    MAX_READ_FILE_BYTES,
    `file \`${file}\` is ${size} bytes, more than fs/readFile answers (${MAX_READ_FILE_BYTES}); ` +
      'read it in blocks with fs/open and fs/readBlock',
  );
}

/** A read's first buffer beyond the size stat saw, so a file that grew meanwhile is still read whole. */
const READ_GROWTH_BYTES = 64 * 1024;
/** Most a single read asks for once the file has outgrown the first buffer. */
const READ_PIECE_BYTES = 1024 * 1024;

/**
 * The whole file, or null once it proves longer than `maxBytes` (it may grow while being read).
 * The first read is sized from `expectedBytes`: a buffer per read sized for the limit instead made
 * a folder of small files mostly garbage collection. A read that does not fill its buffer met the
 * end of a regular file, so a small file takes one read.
 */
async function readAtMost(file: string, expectedBytes: number, maxBytes: number): Promise<Buffer | null> {
  const handle = await open(file, 'r');
  try {
    const pieces: Buffer[] = [];
    let total = 0;
    let want = expectedBytes + READ_GROWTH_BYTES;
    for (;;) {
      const piece = Buffer.allocUnsafe(Math.min(want, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(piece, 0, piece.length, null);
      pieces.push(piece.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes) return null;
      if (bytesRead < piece.length) return Buffer.concat(pieces, total);
      want = READ_PIECE_BYTES;
    }
  } finally {
    await handle.close();
  }
}

export async function fsReadFile(uri: string): Promise<{ dataBase64: string }> {
  const file = uriToPath(uri);
  const info = await osCall(() => stat(file));
  if (!info.isFile()) throw RpcError.invalidRequest(`path \`${file}\` is not a file`);
  if (info.size > MAX_READ_FILE_BYTES) throw readFileTooLarge(file, String(info.size));
  const data = await osCall(() => readAtMost(file, info.size, MAX_READ_FILE_BYTES));
  if (data === null) throw readFileTooLarge(file, `over ${MAX_READ_FILE_BYTES}`);
  return { dataBase64: data.toString('base64') };
}

export async function fsWriteFile(params: FsWriteFileParams): Promise<Record<string, never>> {
  const file = uriToPath(params.path);
  const decoded = decodeBase64Strict(params.dataBase64);
  if (!decoded.ok) {
    throw RpcError.invalidRequest(`fs/writeFile requires valid base64 dataBase64: ${decoded.reason}`);
  }
  await osCall(() => writeFile(file, decoded.bytes));
  return {};
}

export async function fsCreateDirectory(params: FsCreateDirectoryParams): Promise<Record<string, never>> {
  const dir = uriToPath(params.path);
  const recursive = params.recursive ?? true;
  await osCall(async () => {
    if (recursive) {
      // mkdir -p succeeds on an existing file's path in some Node versions; codex reports EEXIST.
      const existing = await stat(dir).catch(() => null);
      if (existing && !existing.isDirectory()) throw Object.assign(new Error('exists'), { code: 'EEXIST' });
    }
    await mkdir(dir, { recursive });
  });
  return {};
}

function metadataOf(link: Stats, target: Stats): FsMetadata {
  return {
    isDirectory: target.isDirectory(),
    isFile: target.isFile(),
    isSymlink: link.isSymbolicLink(),
    size: target.size,
    createdAtMs: Math.floor(target.birthtimeMs),
    modifiedAtMs: Math.floor(target.mtimeMs),
  };
}

export async function fsGetMetadata(uri: string): Promise<FsMetadata> {
  const file = uriToPath(uri);
  const link = await osCall(() => lstat(file));
  const target = link.isSymbolicLink() ? await stat(file).catch(() => link) : link;
  return metadataOf(link, target);
}

export async function fsReadDirectory(uri: string): Promise<{ entries: FsDirectoryEntry[] }> {
  const dir = uriToPath(uri);
  const dirents = await osCall(() => readdir(dir, { withFileTypes: true }));
  const entries = await Promise.all(
    dirents.map(async (dirent) => {
      let isDirectory = dirent.isDirectory();
      let isFile = dirent.isFile();
      if (dirent.isSymbolicLink()) {
        const target = await stat(path.join(dir, dirent.name)).catch(() => null);
        isDirectory = target?.isDirectory() ?? false;
        isFile = target?.isFile() ?? false;
      }
      return { fileName: dirent.name, isDirectory, isFile };
    }),
  );
  return { entries };
}

export async function fsRemove(params: FsRemoveParams): Promise<Record<string, never>> {
  const target = uriToPath(params.path);
  const recursive = params.recursive ?? true;
  const force = params.force ?? true;
  await osCall(async () => {
    const info = await lstat(target).catch((error: unknown) => {
      if (force && (error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    });
    if (!info) return;
    if (info.isDirectory() && !recursive) await rmdir(target);
    else await rm(target, { recursive, force });
  });
  return {};
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

export async function fsCopy(params: FsCopyParams): Promise<Record<string, never>> {
  const source = uriToPath(params.sourcePath);
  const destination = uriToPath(params.destinationPath);
  const info = await osCall(() => lstat(source));
  if (info.isDirectory()) {
    if (!params.recursive) {
      throw RpcError.invalidRequest('fs/copy requires recursive: true when sourcePath is a directory');
    }
    const realSource = await osCall(() => realpath(source));
    const destParent = await realpath(path.dirname(destination)).catch(() => path.dirname(destination));
    if (isInside(path.join(destParent, path.basename(destination)), realSource)) {
      throw RpcError.invalidRequest('fs/copy cannot copy a directory to itself or one of its descendants');
    }
  } else if (!info.isFile() && !info.isSymbolicLink()) {
    throw RpcError.invalidRequest(
      `fs/copy only supports regular files, directories and symlinks: \`${source}\``,
    );
  }
  await osCall(() => cp(source, destination, { recursive: true, force: true, verbatimSymlinks: true }));
  return {};
}

export async function fsRename(params: FsRenameParams): Promise<Record<string, never>> {
  const source = uriToPath(params.sourcePath);
  const destination = uriToPath(params.destinationPath);
  try {
    if (params.keepDestinationMode) await takeOverAttributes(source, destination);
    if (params.noReplace) await renameNoReplace(source, destination);
    else await rename(source, destination);
  } catch (error) {
    const rpc = toFsRpcError(error);
    // The client offers "replace or pick another name" on this kind, without reading the text.
    if (params.noReplace && errnoCode(error) === 'EEXIST') {
      throw new RpcError(rpc.code, rpc.message, { kind: FsErrorKind.exists });
    }
    throw rpc;
  }
  return {};
}

/** Errors of link(2) that mean "this file system has no hard links", not "the name is taken". */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

/**
 * A rename that fails with EEXIST instead of replacing. For a file, link(2) claims the new name
 * atomically; a folder (or a file system without hard links) is checked first, which leaves a
 * short race that rename(2) over a non-empty folder still refuses.
 */
async function renameNoReplace(source: string, destination: string): Promise<void> {
  if (!(await lstat(source)).isDirectory()) {
    try {
      await link(source, destination);
      await unlink(source);
      return;
    } catch (error) {
      if (!NO_HARD_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
  }
  const taken = await lstat(destination).then(
    () => true,
    () => false,
  );
  if (taken) throw Object.assign(new Error('exists'), { code: 'EEXIST' });
  await rename(source, destination);
}

/**
 * Gives `source` the permission bits of the regular file it is about to replace, and its owner and
 * group where this process may set them (only root may give a file away; a user's own file keeps
 * its owner anyway). Owner first: chown clears set-uid bits that chmod then puts back.
 */
async function takeOverAttributes(source: string, destination: string): Promise<void> {
  const replaced = await lstat(destination).catch(() => null);
  if (!replaced?.isFile()) return;
  await chown(source, replaced.uid, replaced.gid).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  });
  await chmod(source, replaced.mode & 0o7777);
}

export async function fsCanonicalize(uri: string): Promise<{ path: string }> {
  const resolved = await osCall(() => realpath(uriToPath(uri)));
  return { path: pathToUri(resolved) };
}

export async function fsWalk(params: FsWalkParams): Promise<FsWalkResult> {
  const root = uriToPath(params.path);
  const { maxDepth, maxDirectories, maxEntries, followDirectorySymlinks } = params.options;
  const prune = params.options.pruneHiddenDirectories ?? false;
  const rootInfo = await osCall(() => stat(root));
  const result: FsWalkResult = { entries: [], errors: [], truncated: false };
  if (!rootInfo.isDirectory()) return result;
  let queue: Array<{ dir: string; depth: number }> = [{ dir: root, depth: 0 }];
  // A directory reached twice (through a followed symlink) is listed each time but walked once.
  const walked = new Set([`${rootInfo.dev}:${rootInfo.ino}`]);
  let directoriesRead = 0;
  while (queue.length > 0) {
    const next: typeof queue = [];
    for (const { dir, depth } of queue) {
      if (directoriesRead >= maxDirectories) {
        result.truncated = true;
        return result;
      }
      directoriesRead++;
      let dirents;
      try {
        dirents = await readdir(dir, { withFileTypes: true });
      } catch (error) {
        result.errors.push({ path: pathToUri(dir), message: toFsRpcError(error).message });
        continue;
      }
      for (const dirent of dirents) {
        const full = path.join(dir, dirent.name);
        let isDirectory = dirent.isDirectory();
        let identity: Stats | null = null;
        if (dirent.isSymbolicLink()) {
          // Codex lists a symlink only when it is a directory link being followed.
          identity = await stat(full).catch(() => null);
          if (!identity?.isDirectory() || !followDirectorySymlinks) continue;
          isDirectory = true;
        }
        if (result.entries.length >= maxEntries) {
          result.truncated = true;
          return result;
        }
        result.entries.push({ path: pathToUri(full), kind: isDirectory ? 'directory' : 'file' });
        const hidden = dirent.name.startsWith('.');
        if (!isDirectory || depth >= maxDepth || (prune && hidden)) continue;
        identity ??= await stat(full).catch(() => null);
        const key = identity ? `${identity.dev}:${identity.ino}` : full;
        if (walked.has(key)) continue;
        walked.add(key);
        next.push({ dir: full, depth: depth + 1 });
      }
    }
    queue = next;
  }
  return result;
}
