// editor.* of the contract: opening a file for the editor and saving it with its conflict check
// (edit-service.ts), on the connected client of its environment; a save too large for one message
// arrives in chunks first (chunked-saves.ts). A save's cleanup of what it staged is handed to the
// transfer queue, so quitting waits for it as for an upload's.
import { ChunkedSaves } from '../files/chunked-saves';
import type { NamespaceHandlers } from './command-handlers';
import { openForEdit, saveEdited } from '../files/edit-service';
import type { EnvironmentRegistry } from '../environments/environment-registry';
import type { TrackCleanup } from '../files/transfer-queue';

export type EditorHandlers = NamespaceHandlers<'editor'>;

export function editorHandlers(envs: EnvironmentRegistry, cleanup: TrackCleanup): EditorHandlers {
  const chunked = new ChunkedSaves();
  return {
    'editor.open': async ({ envId, path }) => openForEdit(await envs.connectedFs(envId), path),
    'editor.beginSave': ({ envId, totalBytes }) => ({ saveId: chunked.begin(envId, totalBytes) }),
    'editor.saveChunk': async ({ saveId, offset, dataBase64 }) => {
      await chunked.push(saveId, offset, Buffer.from(dataBase64, 'base64'));
      return { ok: true };
    },
    'editor.save': async ({ envId, path, dataBase64, mode, base, saveId }) => {
      // The bytes are taken before waiting for the link, so a save waiting for it holds them alone.
      const data = saveId ? await chunked.take(saveId, envId) : Buffer.from(dataBase64, 'base64');
      return saveEdited(await envs.connectedClient(envId), { path, data, mode, base }, cleanup);
    },
  };
}
