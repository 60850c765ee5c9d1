// transfers.* of the contract: queueing uploads (upload-job.ts, fed chunk by chunk through an
// UploadBuffer) and downloads (download-job.ts), of files and of folders (folder-upload-job.ts,
// folder-download-job.ts), listing, cancelling and clearing them.
import type { NamespaceHandlers } from './command-handlers';
import { prepareDownload } from '../files/download-job';
import {
  PendingFolderDownloads,
  prepareFolderDownload,
  type PendingFolderDownload,
} from '../files/folder-download-job';
import { folderUploadFiles, folderUploadJob } from '../files/folder-upload-job';
import type { EnvironmentRegistry } from '../environments/environment-registry';
import { resolveTarget } from '../files/existing-target';
import { baseName } from '../files/file-service';
import type { DownloadHost } from '../host-services';
import { DOWNLOAD_URL_TTL_MS, UPLOAD_BUFFER_LIMIT_BYTES } from '../limits';
import { singleUpload, type TransferQueue } from '../files/transfer-queue';
import { UploadBuffer } from '../files/upload-buffer';
import { runUpload } from '../files/upload-job';

export type TransferHandlers = NamespaceHandlers<'transfers'>;

export interface TransferHandlerDeps {
  envs: EnvironmentRegistry;
  transfers: TransferQueue;
  downloads: DownloadHost;
}

export function transferHandlers({ envs, transfers, downloads }: TransferHandlerDeps): TransferHandlers {
  const pendingFolders = new PendingFolderDownloads(DOWNLOAD_URL_TTL_MS);
  /** Queues an answered folder download. */
  const queueFolderDownload = (
    { envId, remotePath, prepared }: PendingFolderDownload,
    answers: Parameters<NonNullable<PendingFolderDownload['prepared']['start']>>[0],
  ) => {
    const init = { envId, direction: 'download' as const, remotePath, name: prepared.name };
    if (!prepared.start) return transfers.addCancelled({ ...init, totalBytes: prepared.totalBytes });
    const { files, job } = prepared.start(answers);
    const totalBytes = files.reduce((sum, f) => sum + f.totalBytes, 0);
    return transfers.add({ ...init, totalBytes, files }, job);
  };
  return {
    'transfers.startUpload': async ({ envId, remotePath: requested, totalBytes, ifExists }) => {
      const client = await envs.connectedClient(envId);
      const { path: remotePath, overwrite } = await resolveTarget(client.fs, requested, ifExists);
      const buffer = new UploadBuffer(totalBytes, UPLOAD_BUFFER_LIMIT_BYTES);
      return transfers.add(
        { envId, direction: 'upload', remotePath, name: baseName(remotePath), totalBytes },
        {
          upload: singleUpload(buffer),
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
    'transfers.startFolderUpload': async ({ envId, remotePath, plan }) => {
      const client = await envs.connectedClient(envId);
      const files = folderUploadFiles(plan);
      const totalBytes = plan.files.reduce((sum, f) => sum + f.size, 0);
      return transfers.add(
        { envId, direction: 'upload', remotePath, name: baseName(remotePath), totalBytes, files },
        folderUploadJob(client, remotePath, plan, UPLOAD_BUFFER_LIMIT_BYTES),
      );
    },
    'transfers.uploadChunk': async ({ id, file, offset, dataBase64, last }) => {
      await transfers.upload(id, file).push(offset, Buffer.from(dataBase64, 'base64'), last);
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
    'transfers.startFolderDownload': async ({ envId, remotePath }) => {
      const prepared = await prepareFolderDownload(await envs.connectedFs(envId), remotePath, downloads);
      const pending = { envId, remotePath, prepared };
      if (prepared.taken.length > 0) {
        return { transfer: null, url: null, taken: prepared.taken, planId: pendingFolders.add(pending) };
      }
      return { transfer: queueFolderDownload(pending, {}), url: prepared.url, taken: [], planId: null };
    },
    'transfers.confirmFolderDownload': ({ planId, answers }) => {
      const pending = pendingFolders.take(planId);
      return { transfer: queueFolderDownload(pending, answers), url: pending.prepared.url };
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
