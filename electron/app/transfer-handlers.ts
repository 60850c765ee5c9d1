// transfers.* of the contract: queueing uploads (upload-job.ts, fed chunk by chunk through an
// UploadBuffer) and downloads (download-job.ts), listing, cancelling and clearing them.
import type { NamespaceHandlers } from './command-handlers';
import { prepareDownload } from './download-job';
import type { EnvironmentRegistry } from './environment-registry';
import { resolveTarget } from './existing-target';
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
    'transfers.startUpload': async ({ envId, remotePath: requested, totalBytes, ifExists }) => {
      const client = await envs.connectedClient(envId);
      const { path: remotePath, overwrite } = await resolveTarget(client.fs, requested, ifExists);
      const buffer = new UploadBuffer(totalBytes, UPLOAD_BUFFER_LIMIT_BYTES);
      return transfers.add(
        { envId, direction: 'upload', remotePath, name: baseName(remotePath), totalBytes },
        {
          upload: buffer,
          run: (signal, progress, cleanup) =>
            runUpload({
              client,
              remotePath,
              totalBytes,
              overwrite,
              source: buffer,
              signal,
              progress,
              cleanup,
            }),
        },
      );
    },
    'transfers.uploadChunk': async ({ id, offset, dataBase64, last }) => {
      await transfers.upload(id).push(offset, Buffer.from(dataBase64, 'base64'), last);
      return { ok: true };
    },
    'transfers.startDownload': async ({ envId, remotePath }) => {
      const download = await prepareDownload(await envs.connectedFs(envId), remotePath, downloads);
      const init = {
        envId,
        direction: 'download' as const,
        remotePath,
        name: download.name,
        totalBytes: download.totalBytes,
      };
      if (!download.job) return { transfer: transfers.addCancelled(init), url: null };
      return { transfer: transfers.add(init, download.job), url: download.url };
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
