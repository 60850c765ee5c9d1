// One download from a server path to a destination the host provides (a local file, or a one-time
// URL the browser fetches): refuses folders, asks the host for the destination, then streams the
// file's blocks into it, finishing it once complete and aborting it, with the reason, when not.
import { errorMessage } from '../../../shared/error-message';
import type { RemoteFileSystemApi } from '../../client/api';
import { checkEntryName } from '../../client/files/entry-names';
import { resendingAfterDrops } from '../../client/link/resume-budget';
import { AppError } from '../app-error';
import { baseName } from './file-service';
import type { DownloadHost, DownloadTarget } from '../host-services';
import type { TransferJob } from './transfer-queue';

export interface PreparedDownload {
  name: string;
  totalBytes: number;
  /** What the renderer must open (web mode), or null. */
  url: string | null;
  /** The transfer to queue; null when the user declined a destination (closed the save dialog). */
  job: TransferJob | null;
}

export async function prepareDownload(
  fs: RemoteFileSystemApi,
  remotePath: string,
  host: DownloadHost,
): Promise<PreparedDownload> {
  // A read: asked again after a drop that cut it off.
  const meta = await resendingAfterDrops(`Reading ${remotePath}`, () => fs.getMetadata(remotePath));
  if (meta.isDirectory)
    throw new AppError('invalidInput', `${remotePath} is a folder; only files can be downloaded.`);
  const name = baseName(remotePath);
  // The name becomes the suggested local file name (a save dialog's default path, a browser's).
  checkEntryName(name);
  // Aborted with the transfer, so a host still waiting (a one-time URL not yet fetched) gives up.
  const cancel = new AbortController();
  const prepared = await host.begin({ name, size: meta.size, signal: cancel.signal });
  if (!prepared) return { name, totalBytes: meta.size, url: null, job: null };
  return {
    name,
    totalBytes: meta.size,
    url: prepared.url,
    job: {
      run: async (signal, progress) => {
        signal.addEventListener('abort', () => cancel.abort(), { once: true });
        await streamInto(fs, remotePath, meta.size, await prepared.target, signal, progress);
      },
    },
  };
}

async function streamInto(
  fs: RemoteFileSystemApi,
  remotePath: string,
  expectedBytes: number,
  target: DownloadTarget,
  signal: AbortSignal,
  progress: (doneBytes: number) => void,
): Promise<void> {
  let done = 0;
  try {
    await fs.readStream(
      remotePath,
      async (chunk) => {
        await target.write(chunk);
        done += chunk.byteLength;
        progress(done);
      },
      { signal, expectedBytes },
    );
    // A cancel that landed while the last block was in flight: the stream ended normally, but the
    // user said stop, so the file must not appear under its real name.
    signal.throwIfAborted();
    await target.finish();
  } catch (error) {
    target.abort(errorMessage(error));
    throw error;
  }
}
