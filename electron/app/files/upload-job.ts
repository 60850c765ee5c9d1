// One upload to a server path. The bytes are written under a hidden temporary name beside it and
// put in place only once complete (RemoteFileSystem.placeStaged: an atomic rename that keeps the
// replaced file's mode where the server renames), so nobody sees a half-written file under the
// real name and an existing file stays whole until its replacement is. An existing file is
// replaced only when the run says so. A failed or cancelled upload removes what it wrote; the
// removal is handed to the transfer queue, so quitting waits for it before closing the link.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { TetherCapability } from '../../../shared/protocol';
import type { ExecServerClientApi } from '../../client/api';
import type { TrackCleanup } from './transfer-queue';
import { UploadSpool } from './upload-spool';

export interface UploadRun {
  client: ExecServerClientApi;
  remotePath: string;
  totalBytes: number;
  /** Replace a file that exists at remotePath; otherwise such a file fails the upload, untouched. */
  overwrite: boolean;
  source: AsyncIterable<Uint8Array>;
  signal: AbortSignal;
  progress: (doneBytes: number) => void;
  cleanup: TrackCleanup;
}

export async function runUpload(run: UploadRun): Promise<void> {
  await runStagedUpload(run, (staged) =>
    run.client.fs.placeStaged(staged, run.remotePath, { overwrite: run.overwrite }),
  );
}

/**
 * Writes the run's bytes to a staging file beside remotePath and hands its path to `finish`, which
 * puts it in place (or decides not to, and removes it). Should writing or `finish` fail, the staging
 * file is removed. The editor's save checks the server's file in `finish`, right before the rename.
 */
export async function runStagedUpload<T>(run: UploadRun, finish: (staged: string) => Promise<T>): Promise<T> {
  const { client } = run;
  const staged = stagingPath(run.remotePath);
  try {
    if (run.totalBytes === 0) {
      for await (const _ of run.source) break;
      await client.fs.writeFile(staged, new Uint8Array(0));
    } else {
      await writeAll(run, staged);
    }
    // A cancel that landed while the last block was in flight must not put the file in place.
    run.signal.throwIfAborted();
    return await finish(staged);
  } catch (error) {
    // Not awaited: with the link down the removal waits for it, and the failure is known now.
    run.cleanup(client.fs.remove(staged, { recursive: false, force: true }));
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

/** A hidden name in the same folder, so the final rename stays on one file system. */
function stagingPath(remotePath: string): string {
  const { dir, base } = path.posix.parse(remotePath);
  return path.posix.join(dir, `.${base}.tether-upload-${randomBytes(4).toString('hex')}`);
}
