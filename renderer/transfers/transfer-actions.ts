// Uploads (read from a File in ordered chunks) and downloads (a one-time URL in web mode, a save
// dialog in Electron), of files and of folders, tracked by the transfer queue. Names already taken
// are asked about first (Replace / Keep both / Skip, with "apply to all" for a batch or a folder);
// the listing refreshes as each upload lands.
import type { ConflictAnswer, FolderUploadPlan, IfExists, TransferView } from '../../shared/ipc';
import { invoke } from '../ipc/ipc-client';
import { joinPath } from '../files/files-store';
import { useTransfers } from './transfers-store';
import { encodeBase64 } from '../terminals/xterm/base64';
import { ConflictChoices, isConflict } from './conflict-choices';
import { refreshIfShowing } from '../files/file-actions';
import type { LocalFolder } from './local-folders';

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
  await sendChunks(transfer.id, 0, file);
}

/** Sends `file` as file `index` of transfer `id`, in order; stops early once the transfer has ended. */
async function sendChunks(id: string, index: number, file: File): Promise<void> {
  let offset = 0;
  do {
    const state = useTransfers.getState().byId[id]?.state;
    if (state === 'cancelled' || state === 'failed') return;
    const end = Math.min(file.size, offset + UPLOAD_CHUNK_BYTES);
    const bytes = new Uint8Array(await file.slice(offset, end).arrayBuffer());
    await invoke('transfers.uploadChunk', {
      id,
      file: index,
      offset,
      dataBase64: encodeBase64(bytes),
      last: end >= file.size,
    });
    offset = end;
  } while (offset < file.size);
}

/** The most names one files.existing call may ask about (the contract's bound). */
const EXISTING_BATCH = 10_000;

/** Which of `names` (paths inside `dir`) exist on the server. */
async function takenNames(envId: string, dir: string, names: string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (let i = 0; i < names.length; i += EXISTING_BATCH) {
    const batch = names.slice(i, i + EXISTING_BATCH);
    for (const name of (await invoke('files.existing', { envId, dir, names: batch })).names) taken.add(name);
  }
  return taken;
}

const KEPT_EXISTING = 'kept the existing file';

/**
 * Uploads a folder into `dir` as `dir/<folder name>`, merging into a folder of that name that is
 * already there: each file whose name is taken is asked about (apply to all answers the rest).
 */
export async function uploadFolder(envId: string, dir: string, folder: LocalFolder): Promise<void> {
  const remotePath = joinPath(dir, folder.name);
  const taken = await takenNames(
    envId,
    dir,
    folder.files.map((f) => `${folder.name}/${f.path}`),
  );
  const choices = new ConflictChoices(remotePath, taken.size);
  const plan: FolderUploadPlan = { folders: folder.folders, files: [], skipped: [] };
  const sent: File[] = [];
  for (const { path, file } of folder.files) {
    let ifExists: IfExists = 'fail';
    if (taken.has(`${folder.name}/${path}`)) {
      const choice = await choices.decide(path);
      if (choice === 'skip') {
        plan.skipped.push({ path, reason: KEPT_EXISTING });
        continue;
      }
      ifExists = choice;
    }
    plan.files.push({ path, size: file.size, ifExists });
    sent.push(file);
  }
  const transfer = await invoke('transfers.startFolderUpload', { envId, remotePath, plan });
  useTransfers.getState().upsert(transfer);
  void settled(transfer.id).then(() => refreshIfShowing(envId, dir));
  // Again, with the files that did not arrive; those that did are not sent twice.
  retries.set(transfer.id, () => {
    const arrived = new Set(
      (useTransfers.getState().byId[transfer.id]?.files ?? [])
        .filter((f) => f.state === 'done')
        .map((f) => f.path),
    );
    const left = folder.files.filter(
      (f) => !arrived.has(f.path) && !plan.skipped.some((s) => s.path === f.path),
    );
    return uploadFolder(envId, dir, { ...folder, files: left });
  });
  for (const [index, file] of sent.entries()) {
    try {
      await sendChunks(transfer.id, index, file);
    } catch (error) {
      // A file the server refused (it failed there) is reported in the queue; the rest go on.
      const state = useTransfers.getState().byId[transfer.id]?.state;
      if (state !== 'running' && state !== 'queued') return;
      if (!isConflict(error)) throw error;
    }
  }
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
  if (url !== null) openDownloadUrl(url, name);
}

/** Lets the browser fetch a one-time download URL and save what it gets (as `name`, when given). */
function openDownloadUrl(url: string, name: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/**
 * Downloads a folder: into a folder the user picks (Electron; local names already taken are asked
 * about) or as a zip the browser saves (web mode).
 */
export async function downloadFolder(envId: string, remotePath: string): Promise<void> {
  const started = await invoke('transfers.startFolderDownload', { envId, remotePath });
  let { transfer, url } = started;
  if (started.planId !== null) {
    const choices = new ConflictChoices(remotePath, started.taken.length);
    const answers: Record<string, ConflictAnswer> = {};
    for (const path of started.taken) answers[path] = await choices.decide(path);
    ({ transfer, url } = await invoke('transfers.confirmFolderDownload', {
      planId: started.planId,
      answers,
    }));
  }
  if (transfer) useTransfers.getState().upsert(transfer);
  if (url !== null) openDownloadUrl(url, '');
}

export function cancelTransfer(id: string): Promise<unknown> {
  return invoke('transfers.cancel', { id });
}

export async function clearFinished(): Promise<void> {
  await invoke('transfers.clearFinished', {});
  const left = await invoke('transfers.list', {});
  for (const id of retries.keys()) if (!left.some((t) => t.id === id)) retries.delete(id);
  useTransfers.getState().setAll(left);
}

/**
 * How to start a folder upload of this page again, by transfer id: the page still holds the
 * folder's files (a reload forgets them, and the row then offers no Retry).
 */
const retries = new Map<string, () => Promise<void>>();

export function canRetry(id: string): boolean {
  return retries.has(id);
}

/** Starts a failed or cancelled folder upload again with the files that did not arrive. */
export async function retryTransfer(id: string): Promise<void> {
  const retry = retries.get(id);
  if (!retry) return;
  retries.delete(id);
  await retry();
}
