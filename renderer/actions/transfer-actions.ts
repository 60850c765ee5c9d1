// Uploads (read from a File in ordered chunks) and downloads (a one-time URL in web mode, a save
// dialog in Electron), tracked by the transfer queue.
import { invoke } from '../ipc/ipc-client';
import { joinPath } from '../stores/files-store';
import { useTransfers } from '../stores/transfers-store';
import { encodeBase64 } from '../terminal/base64';

/** Upload chunk size: at most 1 MiB of file per transfers.uploadChunk call. */
const UPLOAD_CHUNK_BYTES = 512 * 1024;

/** Uploads one file into `dir`; resolves when the last chunk is accepted (or the user cancels). */
async function uploadFile(envId: string, dir: string, file: File): Promise<void> {
  const transfer = await invoke('transfers.startUpload', {
    envId,
    remotePath: joinPath(dir, file.name),
    totalBytes: file.size,
  });
  useTransfers.getState().upsert(transfer);
  let offset = 0;
  do {
    const state = useTransfers.getState().byId[transfer.id]?.state;
    if (state === 'cancelled' || state === 'failed') return;
    const end = Math.min(file.size, offset + UPLOAD_CHUNK_BYTES);
    const bytes = new Uint8Array(await file.slice(offset, end).arrayBuffer());
    await invoke('transfers.uploadChunk', {
      id: transfer.id,
      offset,
      dataBase64: encodeBase64(bytes),
      last: end >= file.size,
    });
    offset = end;
  } while (offset < file.size);
}

export async function uploadFiles(envId: string, dir: string, files: Iterable<File>): Promise<void> {
  for (const file of files) await uploadFile(envId, dir, file);
}

export async function downloadFile(envId: string, remotePath: string, name: string): Promise<void> {
  const { transfer, url } = await invoke('transfers.startDownload', { envId, remotePath });
  useTransfers.getState().upsert(transfer);
  if (url === null) return;
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

export function cancelTransfer(id: string): Promise<unknown> {
  return invoke('transfers.cancel', { id });
}

export async function clearFinished(): Promise<void> {
  await invoke('transfers.clearFinished', {});
  useTransfers.getState().setAll(await invoke('transfers.list', {}));
}
