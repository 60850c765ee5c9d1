// One upload to a server path. A new file is written under a hidden temporary name beside it and
// renamed into place once complete (where the server has an atomic fs/rename), so nobody sees a
// half-written file under the real name, and a failed or cancelled upload removes what it wrote.
// An existing file is written in place: the protocol cannot set mode, owner or links, and a
// rename would lose them; such a file cannot be restored if the upload fails. The removal is
// handed to the transfer queue, so quitting waits for it before closing the link that carries it.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ErrorCode, TetherCapability } from '../../shared/protocol';
import type { ExecServerClientApi } from '../client/api';
import { isClientError } from '../client/client-error';
import type { TrackCleanup } from './transfer-queue';
import { UploadSpool } from './upload-spool';

export interface UploadRun {
  client: ExecServerClientApi;
  remotePath: string;
  totalBytes: number;
  source: AsyncIterable<Uint8Array>;
  signal: AbortSignal;
  progress: (doneBytes: number) => void;
  cleanup: TrackCleanup;
}

export async function runUpload(run: UploadRun): Promise<void> {
  const { client, remotePath } = run;
  if (run.totalBytes === 0) {
    for await (const _ of run.source) break;
    await client.fs.writeFile(remotePath, new Uint8Array(0));
    return;
  }
  const isNew = await missing(client, remotePath);
  const staged = isNew && client.hasCapability(TetherCapability.fsRename);
  const target = staged ? stagingPath(remotePath) : remotePath;
  try {
    await writeAll(run, target);
    if (staged) await client.fs.rename(target, remotePath);
  } catch (error) {
    // Not awaited: with the link down the removal waits for it, and the failure is known now.
    if (isNew) run.cleanup(client.fs.remove(target, { recursive: false, force: true }));
    throw error;
  }
}

async function writeAll(run: UploadRun, target: string): Promise<void> {
  const { client, signal, progress } = run;
  if (client.hasCapability(TetherCapability.fsUpdate)) {
    await client.fs.writeStream(target, run.source, { signal, onProgress: progress });
    return;
  }
  // The server cannot continue a cut-off write, so keep what was sent for a new start.
  const spool = new UploadSpool(run.source);
  try {
    await client.fs.writeStream(target, spool.pass(), {
      signal,
      onProgress: progress,
      rewind: () => spool.pass(),
    });
  } finally {
    await spool.dispose();
  }
}

/** True only when the server says the path does not exist; other errors surface in the write. */
async function missing(client: ExecServerClientApi, path: string): Promise<boolean> {
  try {
    await client.fs.getMetadata(path);
    return false;
  } catch (error) {
    return isClientError(error, 'rpc') && error.rpc?.code === ErrorCode.notFound;
  }
}

/** A hidden name in the same folder, so the final rename stays on one file system. */
function stagingPath(remotePath: string): string {
  const { dir, base } = path.posix.parse(remotePath);
  return path.posix.join(dir, `.${base}.tether-upload-${randomBytes(4).toString('hex')}`);
}
