// The workspace's file operations beyond rename and delete: a new empty file, a copy of a file or
// folder, and a duplicate beside the original. Each writes under a hidden staged name first and puts
// it in place with a rename that refuses a taken name, so nothing is replaced without the user's say
// and a copy shows up only once it is complete.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { IfExists } from '../../../shared/ipc';
import type { RemoteFileSystemApi } from '../../client/api';
import { AppError } from '../app-error';
import { freeName, resolveTarget } from './existing-target';

/** A hidden name beside `remotePath`, so the final rename stays on one file system. */
function stagedName(remotePath: string): string {
  const { dir, base } = path.posix.parse(remotePath);
  return path.posix.join(dir, `.${base}.tether-copy-${randomBytes(4).toString('hex')}`);
}

/** Whether `inner` is `outer` or lies inside it. */
export function isWithin(inner: string, outer: string): boolean {
  const a = path.posix.normalize(inner);
  const b = path.posix.normalize(outer).replace(/\/+$/, '');
  return a === b || a.startsWith(`${b}/`);
}

/** Creates an empty file at `target`; a taken name fails with code `conflict`. */
export async function createFile(fs: RemoteFileSystemApi, target: string): Promise<void> {
  await resolveTarget(fs, target, 'fail');
  const staged = stagedName(target);
  await fs.writeFile(staged, new Uint8Array());
  await placeOrDrop(fs, staged, () => fs.placeStaged(staged, target, { overwrite: false }));
}

/** Copies `from` to `to` as `ifExists` allows; returns where the copy landed. */
export async function copyEntry(
  fs: RemoteFileSystemApi,
  from: string,
  to: string,
  ifExists: IfExists,
): Promise<string> {
  if (isWithin(to, from)) {
    throw new AppError('invalidInput', `${from} cannot be copied into itself; choose another folder.`);
  }
  const { isDirectory } = await fs.getMetadata(from);
  const target = await resolveTarget(fs, to, ifExists);
  const staged = stagedName(target.path);
  await fs.copy(from, staged, { recursive: isDirectory });
  await placeOrDrop(fs, staged, async () => {
    if (!isDirectory) return fs.placeStaged(staged, target.path, { overwrite: target.overwrite });
    // A folder is not renamed over another: the one replaced goes once the copy is complete.
    if (target.overwrite) await fs.remove(target.path, { recursive: true, force: true });
    await fs.rename(staged, target.path, { overwrite: false });
  });
  return target.path;
}

/** Copies `source` beside itself under its first free numbered name. */
export async function duplicateEntry(fs: RemoteFileSystemApi, source: string): Promise<string> {
  return copyEntry(fs, source, await freeName(fs, source), 'fail');
}

async function placeOrDrop(fs: RemoteFileSystemApi, staged: string, place: () => Promise<void>) {
  try {
    await place();
  } catch (error) {
    await fs.remove(staged, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
}
