// Saving an editor's file (checking first that the server still has what was opened, retrying once
// the link is back) and settling a conflict: overwrite, take theirs, save a copy, recreate a deleted file.
import {
  EDITOR_SAVE_CHUNK_BYTES,
  EDITOR_SAVE_LIMIT_BYTES,
  IpcError,
  type EditorSaveMode,
  type EditorSaveResult,
  type EditVersion,
} from '../../shared/ipc';
import { errorMessage } from '../../shared/error-message';
import { change, documentState, markSaved } from './editor-documents';
import { baseName, load, movePanes } from './editor-load';
import { lineEndingsOf } from './line-endings';
import { formatBytes } from '../ui/format';
import { invoke } from '../ipc/ipc-client';
import { editorTab, useEditors } from './editors-store';
import { useEnvironments } from '../environments/environments-store';
import { parentPath } from '../files/files-store';
import { encodeBase64 } from '../terminals/xterm/base64';
import { refreshIfShowing, relistIfShowing } from '../files/file-actions';

const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

/** Saves tab `id`; `mode` says what may be replaced on the server (see EditorSaveMode). */
export async function saveEditor(
  id: string,
  mode: EditorSaveMode = 'ifUnchanged',
): Promise<EditorSaveResult['kind'] | null> {
  const tab = editorTab(id);
  const state = documentState(id);
  if (!tab || !state || tab.content.kind !== 'text' || tab.save.kind === 'saving') return null;
  const { content } = tab;
  const patch = useEditors.getState().patch;
  const sent = state.doc;
  const text = new TextEncoder().encode(sent.sliceString(0, sent.length, content.endings.separator));
  const bytes = content.bom ? concat(BOM, text) : text;
  if (bytes.byteLength > EDITOR_SAVE_LIMIT_BYTES) {
    patch(id, {
      save: {
        kind: 'failed',
        error: `Not saved: ${formatBytes(bytes.byteLength)} is over the editor's save limit of ${formatBytes(EDITOR_SAVE_LIMIT_BYTES)}. Your changes are still here.`,
      },
    });
    return null;
  }
  patch(id, { save: { kind: 'saving' } });
  let result: EditorSaveResult;
  try {
    result = await sendSave(tab.envId, tab.path, bytes, mode, content.version);
  } catch (error) {
    const linkDown =
      (error instanceof IpcError && error.code === 'disconnected') ||
      useEnvironments.getState().byId[tab.envId]?.link.kind !== 'connected';
    const message = `Not saved: ${errorMessage(error)}. Your changes are still here.`;
    patch(id, {
      save: linkDown ? { kind: 'waitingForLink', error: message } : { kind: 'failed', error: message },
    });
    if (linkDown) retryWhenConnected(id, tab.envId, mode);
    return null;
  }
  if (result.kind === 'saved') {
    markSaved(id, sent);
    patch(id, (t) => ({
      path: result.path,
      name: baseName(result.path),
      content: t.content.kind === 'text' ? { ...t.content, version: result.version } : t.content,
      save: { kind: 'idle' },
      conflict: null,
      deleted: false,
      savedAt: Date.now(),
    }));
    movePanes(tab.envId, tab.path, result.path);
    // The folder's listing shows the saved size and time; a new name (a copy, a recreated file)
    // also goes into the tree.
    const folder = parentPath(result.path);
    if (mode === 'copy' || mode === 'recreate') void refreshIfShowing(tab.envId, folder);
    else void relistIfShowing(tab.envId, folder);
  } else if (result.kind === 'conflict') {
    patch(id, { save: { kind: 'idle' }, conflict: result.theirs, deleted: false });
  } else {
    patch(id, { save: { kind: 'idle' }, deleted: true, conflict: null });
  }
  return result.kind;
}

/** editor.save with `bytes`: inline when they fit one message's chunk, else sent in chunks first. */
async function sendSave(
  envId: string,
  path: string,
  bytes: Uint8Array,
  mode: EditorSaveMode,
  base: EditVersion,
): Promise<EditorSaveResult> {
  if (bytes.byteLength <= EDITOR_SAVE_CHUNK_BYTES) {
    return invoke('editor.save', { envId, path, dataBase64: encodeBase64(bytes), mode, base });
  }
  const { saveId } = await invoke('editor.beginSave', { envId, totalBytes: bytes.byteLength });
  for (let offset = 0; offset < bytes.byteLength; offset += EDITOR_SAVE_CHUNK_BYTES) {
    const chunk = bytes.subarray(offset, offset + EDITOR_SAVE_CHUNK_BYTES);
    await invoke('editor.saveChunk', { saveId, offset, dataBase64: encodeBase64(chunk) });
  }
  return invoke('editor.save', { envId, path, mode, base, saveId });
}

/** Saves tabs whose link dropped once it is back; one watcher per tab. */
const waitingForLink = new Map<string, () => void>();

function retryWhenConnected(id: string, envId: string, mode: EditorSaveMode): void {
  waitingForLink.get(id)?.();
  const stop = useEnvironments.subscribe((s) => {
    if (s.byId[envId]?.link.kind !== 'connected') return;
    stopWaiting(id);
    if (editorTab(id)?.save.kind === 'waitingForLink') void saveEditor(id, mode);
  });
  waitingForLink.set(id, stop);
}

/** Stops tab `id`'s wait for its link to come back, if it has one. */
export function stopWaiting(id: string): void {
  waitingForLink.get(id)?.();
  waitingForLink.delete(id);
}

/** *Take theirs*: the editor gets the server's version (mine stays in the undo history). */
export async function takeTheirs(id: string): Promise<void> {
  const tab = editorTab(id);
  const theirs = tab?.conflict;
  const state = documentState(id);
  if (!tab || !theirs) return;
  if (theirs.kind !== 'text' || !state) {
    // Not editable any more (binary now, or too large): show it as it is.
    await load(id, theirs);
    return;
  }
  change(id, { changes: { from: 0, to: state.doc.length, insert: theirs.text } });
  const now = documentState(id);
  if (now) markSaved(id, now.doc);
  useEditors.getState().patch(id, {
    content: { kind: 'text', bom: theirs.bom, endings: lineEndingsOf(theirs.text), version: theirs.version },
    conflict: null,
    save: { kind: 'idle' },
  });
}

/** Back to editing; the next save checks the server again. */
export function dismissConflict(id: string): void {
  useEditors.getState().patch(id, { conflict: null, deleted: false });
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}
