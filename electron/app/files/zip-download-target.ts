// A folder download as one zip stream (web mode): each file becomes an entry under the folder's
// name as it arrives, and the archive streams into the byte sink the host gives (the browser's
// HTTP response) with backpressure end to end. Entries are stored, not deflated: the bytes have
// already crossed the slow link, and the last hop is this machine's loopback. Entry names are the
// server's, checked as for a folder on this machine's disk (the browser unpacking it runs here).
import { PassThrough } from 'node:stream';
import { ZipFile } from 'yazl';
import { errorMessage } from '../../../shared/error-message';
import { checkRelativePath } from '../../client/files/entry-names';
import { AppError } from '../app-error';
import type { DownloadTarget, FolderDownloadTarget } from '../host-services';

export function zipFolderTarget(folderName: string, sink: Promise<DownloadTarget>): FolderDownloadTarget {
  const zip = new ZipFile();
  let failure: Error | null = null;
  let rejectFailed: (error: Error) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => (rejectFailed = reject));
  failed.catch(() => undefined);
  const fail = (error: Error): void => {
    if (failure) return;
    failure = error;
    rejectFailed(error);
    // Ends the pump below, which tears down the browser's response: a broken zip must not look whole.
    (zip.outputStream as PassThrough).destroy(error);
  };
  zip.on('error', fail);

  /** Copies the archive into the sink; resolves once all of it is written there. */
  const pump = async (): Promise<void> => {
    const out = await sink;
    try {
      for await (const chunk of zip.outputStream) await out.write(chunk as Uint8Array);
      await out.finish();
    } catch (error) {
      out.abort(errorMessage(error));
      throw error;
    }
  };
  const pumped = pump();
  pumped.catch((error: unknown) => fail(error instanceof Error ? error : new Error(String(error))));

  const entry = (relativePath: string): string => {
    checkRelativePath(relativePath);
    return `${folderName}/${relativePath}`;
  };
  checkRelativePath(folderName);
  /** Resolves with `work`, or rejects as soon as the archive has failed. */
  const unlessFailed = <T>(work: Promise<T>): Promise<T> => {
    if (failure) return Promise.reject(failure);
    return Promise.race([work, failed]);
  };

  return {
    filesIndependent: false,
    taken: async () => [],
    createFolder: async (relativePath) => {
      if (relativePath !== '') zip.addEmptyDirectory(entry(relativePath));
    },
    file: async (relativePath, size) => {
      const input = new PassThrough();
      zip.addReadStreamLazy(entry(relativePath), { size, compress: false }, (cb) => cb(null, input));
      return {
        write: (chunk) =>
          unlessFailed(
            new Promise<void>((resolve) => {
              if (input.write(chunk)) resolve();
              else input.once('drain', resolve);
            }),
          ),
        finish: async () => {
          input.end();
        },
        abort: (reason) => fail(new AppError('remote', reason)),
      };
    },
    finish: async () => {
      zip.end();
      await unlessFailed(pumped);
    },
    abort: (reason) => fail(new AppError('remote', reason)),
  };
}
