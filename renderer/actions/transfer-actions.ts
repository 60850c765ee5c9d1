// Uploads (read from a File in ordered chunks) and downloads (a one-time URL in web mode, a save
// dialog in Electron), tracked by the transfer queue. Names already taken in the folder are asked
// about first (Replace / Keep both / Skip); the listing refreshes as each upload lands.
import type { IfExists, TransferView } from '../../shared/ipc';
import { invoke } from '../ipc/ipc-client';
import { joinPath } from '../stores/files-store';
import { useTransfers } from '../stores/transfers-store';
import { encodeBase64 } from '../terminal/base64';
import { ConflictChoices } from './conflict-choices';
import { refreshIfShowing } from './file-actions';

/** Upload chunk size: at most 1 MiB of file per transfers.uploadChunk call. */
const UPLOAD_CHUNK_BYTES = 512 * 1024;

/** Uploads one file into `dir`; resolves when the last chunk is accepted (or the user cancels). */
async function uploadFile(envId: string, dir: string, file: File, ifExists: IfExists): Promise<void> {
  const transfer = await invoke('transfers.startUpload', {
    envId,
    remotePath: joinPath(dir, file.name),
    totalBytes: file.size,
    ifExists,
  });
  useTransfers.getState().upsert(transfer);
  void settled(transfer.id).then(() => refreshIfShowing(envId, dir));
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
  const list = [...files];
  const { names } = await invoke('files.existing', { envId, dir, names: list.map((f) => f.name) });
  const taken = new Set(names);
  const choices = new ConflictChoices(dir, taken.size);
  for (const file of list) {
    let ifExists: IfExists = 'fail';
    if (taken.has(file.name)) {
      const choice = await choices.decide(file.name);
      if (choice === 'skip') continue;
      ifExists = choice;
    }
    await uploadFile(envId, dir, file, ifExists);
  }
}

const FINAL_STATES: ReadonlySet<TransferView['state']> = new Set(['done', 'failed', 'cancelled']);

/** Resolves once transfer `id` has ended, however it ended. */
function settled(id: string): Promise<void> {
  return new Promise((resolve) => {
    const ended = (): boolean => FINAL_STATES.has(useTransfers.getState().byId[id]?.state ?? 'queued');
    if (ended()) return resolve();
    const stop = useTransfers.subscribe(() => {
      if (!ended()) return;
      stop();
      resolve();
    });
  });
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
