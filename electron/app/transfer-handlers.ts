// transfers.* of the contract: queueing uploads (upload-job.ts, fed chunk by chunk through an
// UploadBuffer) and downloads, listing, cancelling and clearing them.
import { errorMessage } from '../../shared/error-message';
import { AppError } from './app-error';
import type { NamespaceHandlers } from './command-handlers';
import type { EnvironmentRegistry } from './environment-registry';
import { baseName } from './file-service';
import type { DownloadHost } from './host-services';
import { UPLOAD_BUFFER_LIMIT_BYTES } from './limits';
import type { TransferQueue } from './transfer-queue';
import { UploadBuffer } from './upload-buffer';
import { runUpload } from './upload-job';

export type TransferHandlers = NamespaceHandlers<'transfers'>;

export interface TransferHandlerDeps {
  envs: EnvironmentRegistry;
  transfers: TransferQueue;
  downloads: DownloadHost;
}

export function transferHandlers({ envs, transfers, downloads }: TransferHandlerDeps): TransferHandlers {
  return {
    'transfers.startUpload': async ({ envId, remotePath, totalBytes }) => {
      const client = await envs.connectedClient(envId);
      const buffer = new UploadBuffer(totalBytes, UPLOAD_BUFFER_LIMIT_BYTES);
      return transfers.add(
        { envId, direction: 'upload', remotePath, name: baseName(remotePath), totalBytes },
        {
          upload: buffer,
          run: (signal, progress) =>
            runUpload({ client, remotePath, totalBytes, source: buffer, signal, progress }),
        },
      );
    },
    'transfers.uploadChunk': async ({ id, offset, dataBase64, last }) => {
      await transfers.upload(id).push(offset, Buffer.from(dataBase64, 'base64'), last);
      return { ok: true };
    },
    'transfers.startDownload': async ({ envId, remotePath }) => {
      const fs = await envs.connectedFs(envId);
      const meta = await fs.getMetadata(remotePath);
      if (meta.isDirectory)
        throw new AppError('invalidInput', `${remotePath} is a folder; only files can be downloaded.`);
      const init = {
        envId,
        direction: 'download' as const,
        remotePath,
        name: baseName(remotePath),
        totalBytes: meta.size,
      };
      const cancel = new AbortController();
      const prepared = await downloads.begin({ name: init.name, size: meta.size, signal: cancel.signal });
      if (!prepared) return { transfer: transfers.addCancelled(init), url: null };
      const transfer = transfers.add(init, {
        run: async (signal, progress) => {
          signal.addEventListener('abort', () => cancel.abort(), { once: true });
          const target = await prepared.target;
          let done = 0;
          try {
            await fs.readStream(
              remotePath,
              async (chunk) => {
                await target.write(chunk);
                done += chunk.byteLength;
                progress(done);
              },
              { signal },
            );
            await target.finish();
          } catch (error) {
            target.abort(errorMessage(error));
            throw error;
          }
        },
      });
      return { transfer, url: prepared.url };
    },
    'transfers.list': () => transfers.list(),
    'transfers.cancel': ({ id }) => {
      transfers.cancel(id);
      return { ok: true };
    },
    'transfers.clearFinished': () => {
      transfers.clearFinished();
      return { ok: true };
    },
  };
}
