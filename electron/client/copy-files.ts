// What `tether cp` copies: one file or (recursively) one folder between this machine and a server,
// through the client's pipelined, reconnect-riding streams. Files of a folder go several at once,
// so many small files are not one round trip each. Local files land under a temporary name and
// are renamed into place when complete; remote ones are staged and placed (placeStaged).
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { RemoteFileSystemApi } from './api';
import { ClientError } from './client-error';
import { walkLocalFolder, walkRemoteFolder, type FolderTree } from './folder-walk';

/** Files of a folder copied at the same time. */
export const COPY_FILE_CONCURRENCY = 8;
/** Local read size of an upload (one protocol block). */
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

/** Copies local `source` to remote `destination`; what fails on the way goes to `job.progress`. */
export async function upload(job: CopyJob, source: string, destination: string): Promise<void> {
  const info = await stat(source);
  const target = (await isRemoteDirectory(job.fs, destination))
    ? path.posix.join(destination, path.basename(source))
    : destination;
  if (!info.isDirectory()) {
    return runAll(
      job,
      [{ from: source, to: target, name: path.basename(source), size: info.size }],
      uploadOne,
    );
  }
  if (!job.recursive) throw new ClientError('invalidArgument', `${source} is a folder; copy it with -r.`);
  const tree = await walkLocalFolder(source);
  const files = copiesOf(tree, source, target, { from: path.join, to: path.posix.join }, job.progress);
  for (const folder of ['', ...tree.folders]) {
    await job.fs.createDirectory(path.posix.join(target, folder), { recursive: true });
  }
  return runAll(job, files, uploadOne);
}

/** Copies remote `source` to local `destination`; what fails on the way goes to `job.progress`. */
export async function download(job: CopyJob, source: string, destination: string): Promise<void> {
  const meta = await job.fs.getMetadata(source);
  const localInfo = await stat(destination).catch(() => null);
  const target = localInfo?.isDirectory() ? path.join(destination, path.posix.basename(source)) : destination;
  if (!meta.isDirectory) {
    return runAll(
      job,
      [{ from: source, to: target, name: path.posix.basename(source), size: meta.size }],
      downloadOne,
    );
  }
  if (!job.recursive) throw new ClientError('invalidArgument', `${source} is a folder; copy it with -r.`);
  const tree = await walkRemoteFolder(job.fs, source, 'follow');
  const files = copiesOf(tree, source, target, { from: path.posix.join, to: path.join }, job.progress);
  for (const folder of ['', ...tree.folders]) await mkdir(path.join(target, folder), { recursive: true });
  return runAll(job, files, downloadOne);
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
  return tree.files.map(({ path: name, size }) => ({
    from: join.from(fromRoot, name),
    to: join.to(toRoot, name),
    name,
    size,
  }));
}

/** Runs the copies several at a time; a failed file is reported, the rest go on. */
async function runAll(
  job: CopyJob,
  files: FileCopy[],
  copyOne: (job: CopyJob, file: FileCopy) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const file = files[next++]!;
      job.progress.started(file.name, file.size);
      try {
        await copyOne(job, file);
      } catch (error) {
        job.progress.failed(file.name, (error as Error).message);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(COPY_FILE_CONCURRENCY, files.length) }, worker));
}

async function uploadOne(job: CopyJob, file: FileCopy): Promise<void> {
  const { dir, base } = path.posix.parse(file.to);
  const staged = path.posix.join(dir, `.${base}.tether-upload-${randomBytes(4).toString('hex')}`);
  const read = (): AsyncIterable<Uint8Array> =>
    createReadStream(file.from, { highWaterMark: UPLOAD_READ_BYTES });
  try {
    if (file.size === 0) await job.fs.writeFile(staged, new Uint8Array(0));
    else {
      await job.fs.writeStream(staged, read(), {
        // A server that cannot continue a cut-off write gets the file again from byte 0.
        rewind: read,
        onProgress: (bytes) => job.progress.advanced(file.name, bytes),
      });
    }
    // Like scp and cp, an existing file at the destination is replaced, once the new one is whole.
    await job.fs.placeStaged(staged, file.to, { overwrite: true });
  } catch (error) {
    await job.fs.remove(staged, { recursive: false, force: true }).catch(() => undefined);
    throw error;
  }
}

async function downloadOne(job: CopyJob, file: FileCopy): Promise<void> {
  const partial = `${file.to}.tether-part-${randomBytes(4).toString('hex')}`;
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
}
