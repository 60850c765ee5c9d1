// What `tether cp` copies: one file or (recursively) one folder between this machine and a server.
// Small files go whole in one call each way, many at once, so a folder of them is not several
// round trips per file in a row; large ones go through the client's pipelined, reconnect-riding
// streams, a few at once. Local files land under a temporary name and are renamed into place
// when complete; remote ones are staged and placed (placeStaged).
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RemoteFileSystemApi } from '../api';
import { ClientError, isClientError } from '../client-error';
import { localPathUnder } from './entry-names';
import { sizeMismatch } from './fs-stream';
import { walkLocalFolder, walkRemoteFolder, type FolderTree } from './folder-walk';
import { inParallel } from './in-parallel';
import { resendingAfterDrops } from '../link/resume-budget';
import { errorMessage } from '../../../shared/error-message';

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
  /** The server listed a name that cannot be a local name (see entry-names.ts); the copy goes on. */
  refused(name: string, reason: string): void;
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
  const tree = await walkLocalFolder(source);
  const files = copiesOf(tree, source, target, { from: path.join, to: path.posix.join }, job.progress);
  // mkdir -p of every folder at once: each creates whatever parents the others have not yet.
  const folders = ['', ...tree.folders].map((folder) => path.posix.join(target, folder));
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
  const tree = await walkRemoteFolder(job.fs, source, 'follow');
  for (const { path: name, reason } of tree.refused) job.progress.refused(name, reason);
  // Each local path is checked again as a whole: it must stay under the target.
  const files = copiesOf(tree, source, target, { from: path.posix.join, to: localPathUnder }, job.progress);
  for (const folder of ['', ...tree.folders]) {
    try {
      await mkdir(localPathUnder(target, folder), { recursive: true });
    } catch (error) {
      job.progress.failed(folder, errorMessage(error));
    }
  }
  return copyAll(job, files, DOWNLOADS);
}

async function isRemoteDirectory(fs: RemoteFileSystemApi, remotePath: string): Promise<boolean> {
  if (!(await fs.exists(remotePath))) return false;
  return (await fs.getMetadata(remotePath)).isDirectory;
}

/** The files of `tree` as copies from under `fromRoot` to under `toRoot`; what it skipped is reported. */
function copiesOf(
  tree: FolderTree,
  fromRoot: string,
  toRoot: string,
  join: { from: (root: string, rel: string) => string; to: (root: string, rel: string) => string },
  progress: CopyProgress,
): FileCopy[] {
  for (const { path: name, reason } of tree.skipped) progress.failed(name, reason);
  return tree.files.flatMap(({ path: name, size }) => {
    try {
      return [{ from: join.from(fromRoot, name), to: join.to(toRoot, name), name, size }];
    } catch (error) {
      progress.failed(name, errorMessage(error));
      return [];
    }
  });
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
        job.progress.failed(file.name, errorMessage(error));
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
    if (data.byteLength !== file.size) throw sizeMismatch(file.from, file.size, data.byteLength);
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
      await job.fs.readStream(
        file.from,
        async (chunk) => {
          await out.write(chunk);
          done += chunk.byteLength;
          job.progress.advanced(file.name, done);
        },
        { expectedBytes: file.size },
      );
      await out.close();
      await rename(partial, file.to);
    } catch (error) {
      await out.close().catch(() => undefined);
      await rm(partial, { force: true });
      throw error;
    }
  },
};
