// editor.* of the contract: opening a file for the editor and saving it with its conflict check
// (edit-service.ts), on the connected client of its environment. A save's cleanup of what it
// staged is handed to the transfer queue, so quitting waits for it as for an upload's.
import type { NamespaceHandlers } from './command-handlers';
import { openForEdit, saveEdited } from './edit-service';
import type { EnvironmentRegistry } from './environment-registry';
import type { TrackCleanup } from './transfer-queue';

export type EditorHandlers = NamespaceHandlers<'editor'>;

export function editorHandlers(envs: EnvironmentRegistry, cleanup: TrackCleanup): EditorHandlers {
  return {
    'editor.open': async ({ envId, path }) => openForEdit(await envs.connectedFs(envId), path),
    'editor.save': async ({ envId, path, dataBase64, mode, base }) =>
      saveEdited(
        await envs.connectedClient(envId),
        { path, data: Buffer.from(dataBase64, 'base64'), mode, base },
        cleanup,
      ),
  };
}
