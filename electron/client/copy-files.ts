// What `tether cp` copies: one file or (recursively) one folder between this machine and a server.
// Small files go whole in one call each way, many at once, so a folder of them is not several
// round trips per file in a row; large ones go through the client's pipelined, reconnect-riding
// streams, a few at once. Local files land under a temporary name and are renamed into place
// when complete; remote ones are staged and placed (placeStaged).
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RemoteFileSystemApi } from './api';
import { ClientError, isClientError } from './client-error';
import { resendingAfterDrops } from './resume-budget';

/** Small files (and remote listings, metadata and folders) in flight at once. */
export const FILES_IN_FLIGHT = 32;
/** Streamed files in flight at once: each fills the link with its own window, more only hold more memory. */
export const STREAMS_IN_FLIGHT = 4;
/**
 * Files up to this size go whole, in one fs/readFile or fs/writeFile, instead of open + blocks +
 * close. With FILES_IN_FLIGHT, it bounds what small files hold in memory (16 MiB, one window).
 */
export const WHOLE_FILE_MAX_BYTES = 512 * 1024;
/** Local read size of a streamed upload (one protocol block). */
const UPLOAD_READ_BYTES = 1_048_576;

export interface CopyProgress {
  /** A file started: its path relative to the copy's root and its size. */
  started(name: string, size: number): void;
  /** Bytes of the file copied so far. */
  advanced(name: string, doneBytes: number): void;
  /** The file could not be copied (or is not a file, folder or link to one); the copy goes on. */
  failed(name: string, reason: string): void;
}

export interface CopyJob {
  fs: RemoteFileSystemApi;
  recursive: boolean;
  progress: CopyProgress;
}

/** One file to copy: where from, where to, and its name for progress. */
interface FileCopy {
  from: string;
  to: string;
  name: string;
  size: number;
}

/** How one direction copies a file of each kind. */
interface Copier {
  whole(job: CopyJob, file: FileCopy): Promise<void>;
  streamed(job: CopyJob, file: FileCopy): Promise<void>;
}

/** Copies local `source` to remote `destination`; what fails on the way goes to `job.progress`. */
export async function upload(job: CopyJob, source: string, destination: string): Promise<void> {
  const info = await stat(source);
  const target = (await isRemoteDirectory(job.fs, destination))
    ? path.posix.join(destination, path.basename(source))
    : destination;
  if (!info.isDirectory()) {
    return copyAll(
      job,
      [{ from: source, to: target, name: path.basename(source), size: info.size }],
      UPLOADS,
    );
  }
  if (!job.recursive) throw new ClientError('invalidArgument', `${source} is a folder; copy it with -r.`);
  const files: FileCopy[] = [];
  const folders: string[] = [target];
  await walkLocal(source, target, '', files, folders, job.progress);
  // mkdir -p of every folder at once: each creates whatever parents the others have not yet.
  await inParallel(folders, FILES_IN_FLIGHT, (folder) =>
    resendingAfterDrops(`Creating ${folder}`, () => job.fs.createDirectory(folder, { recursive: true })),
  );
  return copyAll(job, files, UPLOADS);
}

/** Copies remote `source` to local `destination`; what fails on the way goes to `job.progress`. */
export async function download(job: CopyJob, source: string, destination: string): Promise<void> {
  const meta = await job.fs.getMetadata(source);
  const localInfo = await stat(destination).catch(() => null);
  const target = localInfo?.isDirectory() ? path.join(destination, path.posix.basename(source)) : destination;
  if (!meta.isDirectory) {
    const name = path.posix.basename(source);
    return copyAll(job, [{ from: source, to: target, name, size: meta.size }], DOWNLOADS);
  }
  if (!job.recursive) throw new ClientError('invalidArgument', `${source} is a folder; copy it with -r.`);
  const { files, folders } = await walkRemote(job, source, target);
  for (const folder of folders) await mkdir(folder, { recursive: true });
  return copyAll(job, files, DOWNLOADS);
}

async function isRemoteDirectory(fs: RemoteFileSystemApi, remotePath: string): Promise<boolean> {
  if (!(await fs.exists(remotePath))) return false;
  return (await fs.getMetadata(remotePath)).isDirectory;
}

/**
 * Runs `task` for each item, at most `limit` at once, in the items' order. Once one fails no
 * new ones start; the first failure is thrown after the running ones have ended.
 */
async function inParallel<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (next < items.length && failure === null) {
      const item = items[next++]!;
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}

/** Lists a local folder tree: files to copy, folders to create (symlinks followed, like scp -r). */
async function walkLocal(
  dir: string,
  remoteDir: string,
  prefix: string,
  files: FileCopy[],
  folders: string[],
  progress: CopyProgress,
): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  const infos = await Promise.all(entries.map((entry) => stat(path.join(dir, entry.name)).catch(() => null)));
  for (const [i, entry] of entries.entries()) {
    const from = path.join(dir, entry.name);
    const to = path.posix.join(remoteDir, entry.name);
    const name = prefix + entry.name;
    const info = infos[i];
    if (!info) {
      progress.failed(name, 'a link that points nowhere');
    } else if (info.isDirectory()) {
      folders.push(to);
      await walkLocal(from, to, `${name}/`, files, folders, progress);
    } else if (info.isFile()) {
      files.push({ from, to, name, size: info.size });
    } else {
      progress.failed(name, 'not a regular file');
    }
  }
}

/**
 * Lists a remote folder tree level by level: each level's folders are listed at once, then the
 * metadata of every file found is asked for at once (the listing has no sizes).
 */
async function walkRemote(
  job: CopyJob,
  root: string,
  localRoot: string,
): Promise<{ files: FileCopy[]; folders: string[] }> {
  const files: FileCopy[] = [];
  const folders = [localRoot];
  let level = [{ from: root, to: localRoot, prefix: '' }];
  while (level.length > 0) {
    const found: Array<{ from: string; to: string; name: string }> = [];
    const below: typeof level = [];
    await inParallel(level, FILES_IN_FLIGHT, async (dir) => {
      const entries = await resendingAfterDrops(`Listing ${dir.from}`, () => job.fs.readDirectory(dir.from));
      for (const entry of entries) {
        const from = path.posix.join(dir.from, entry.fileName);
        const to = path.join(dir.to, entry.fileName);
        const name = dir.prefix + entry.fileName;
        if (entry.isDirectory) {
          folders.push(to);
          below.push({ from, to, prefix: `${name}/` });
        } else if (entry.isFile) {
          found.push({ from, to, name });
        } else {
          job.progress.failed(name, 'not a regular file');
        }
      }
    });
    await inParallel(found, FILES_IN_FLIGHT, async (file) => {
      const meta = await resendingAfterDrops(`Reading ${file.from}`, () => job.fs.getMetadata(file.from));
      files.push({ ...file, size: meta.size });
    });
    level = below;
  }
  files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { files, folders };
}

/**
 * Copies the files, small ones whole and many at once, large ones streamed a few at once, both
 * lanes side by side; a failed file is reported, the rest go on.
 */
async function copyAll(job: CopyJob, files: FileCopy[], copier: Copier): Promise<void> {
  const lane =
    (copy: (job: CopyJob, file: FileCopy) => Promise<void>) =>
    async (file: FileCopy): Promise<void> => {
      job.progress.started(file.name, file.size);
      try {
        await copy(job, file);
      } catch (error) {
        job.progress.failed(file.name, (error as Error).message);
      }
    };
  const whole = files.filter((file) => file.size <= WHOLE_FILE_MAX_BYTES);
  const streamed = files.filter((file) => file.size > WHOLE_FILE_MAX_BYTES);
  await Promise.all([
    inParallel(whole, FILES_IN_FLIGHT, lane(copier.whole)),
    inParallel(streamed, STREAMS_IN_FLIGHT, lane(copier.streamed)),
  ]);
}

/** A name beside `to` for the upload's new contents until they are complete. */
function stagedNameFor(to: string): string {
  const { dir, base } = path.posix.parse(to);
  return path.posix.join(dir, `.${base}.tether-upload-${randomBytes(4).toString('hex')}`);
}

const UPLOADS: Copier = {
  async whole(job, file) {
    const staged = stagedNameFor(file.to);
    const data = await readFile(file.from);
    await stagedUpload(job, file, staged, async () => {
      // The staged name is this copy's alone: writing it again after a drop is harmless.
      await resendingAfterDrops(`Writing ${file.to}`, () => job.fs.writeFile(staged, data));
      job.progress.advanced(file.name, data.byteLength);
    });
  },

  async streamed(job, file) {
    const staged = stagedNameFor(file.to);
    const read = (): AsyncIterable<Uint8Array> =>
      createReadStream(file.from, { highWaterMark: UPLOAD_READ_BYTES });
    await stagedUpload(job, file, staged, () =>
      job.fs.writeStream(staged, read(), {
        // A server that cannot continue a cut-off write gets the file again from byte 0.
        rewind: read,
        onProgress: (bytes) => job.progress.advanced(file.name, bytes),
      }),
    );
  },
};

/** Writes the staged file with `write`, then puts it in place; a failure leaves no staged file. */
async function stagedUpload(
  job: CopyJob,
  file: FileCopy,
  staged: string,
  write: () => Promise<unknown>,
): Promise<void> {
  try {
    await write();
    await placeRidingDrops(job.fs, staged, file.to);
  } catch (error) {
    await job.fs.remove(staged, { recursive: false, force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * Like scp and cp, an existing file at the destination is replaced, once the new one is whole.
 * A drop may cut the placing off after it happened: the staged name (ours alone) is then gone
 * and the destination is there, so it is done; while the staged file remains, it is placed again.
 */
async function placeRidingDrops(fs: RemoteFileSystemApi, staged: string, to: string): Promise<void> {
  await resendingAfterDrops(`Placing ${to}`, async () => {
    try {
      await fs.placeStaged(staged, to, { overwrite: true });
    } catch (error) {
      if (!isClientError(error, 'disconnected')) throw error;
      const [stagedLeft, placed] = await resendingAfterDrops(`Placing ${to}`, () =>
        Promise.all([fs.exists(staged), fs.exists(to)]),
      );
      if (stagedLeft || !placed) throw error;
    }
  });
}

/** A name beside `to` for the download's contents until they are complete. */
function partialNameFor(to: string): string {
  return `${to}.tether-part-${randomBytes(4).toString('hex')}`;
}

const DOWNLOADS: Copier = {
  async whole(job, file) {
    const data = await resendingAfterDrops(`Reading ${file.from}`, () => job.fs.readFile(file.from));
    const partial = partialNameFor(file.to);
    try {
      await writeFile(partial, data);
      await rename(partial, file.to);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    job.progress.advanced(file.name, data.byteLength);
  },

  async streamed(job, file) {
    const partial = partialNameFor(file.to);
    const out = await open(partial, 'w');
    try {
      let done = 0;
      await job.fs.readStream(file.from, async (chunk) => {
        await out.write(chunk);
        done += chunk.byteLength;
        job.progress.advanced(file.name, done);
      });
      await out.close();
      await rename(partial, file.to);
    } catch (error) {
      await out.close().catch(() => undefined);
      await rm(partial, { force: true });
      throw error;
    }
  },
};
