// What the user can do with editors: open a remote file in an editor pane of the main area (or
// focus the pane that has it), save it (checking first that the server still has what was opened),
// settle a conflict (overwrite, take theirs, save a copy), recreate a deleted file, and close it,
// asking first when it has unsaved changes. A file has at most one document and one pane.
import {
  EDITOR_SAVE_CHUNK_BYTES,
  EDITOR_SAVE_LIMIT_BYTES,
  IpcError,
  type EditorFile,
  type EditorSaveMode,
  type EditorSaveResult,
  type EditVersion,
  type PaneContent,
} from '../../shared/ipc';
import { errorMessage } from '../../shared/error-message';
import { change, documentState, dropDocument, focusView, markSaved, putDocument } from './editor-documents';
import { lineEndingsOf } from './line-endings';
import { formatBytes } from '../ui/format';
import { invoke } from '../ipc/ipc-client';
import { editorTab, useEditors, type EditorContent, type EditorTab } from './editors-store';
import { useEnvironments } from '../environments/environments-store';
import { filesOf, joinPath, parentPath, useFiles } from '../files/files-store';
import { encodeBase64 } from '../terminals/xterm/base64';
import { refreshIfShowing } from '../files/file-actions';
import { envPanes, leaves, sameContent, usePanes } from '../panes/panes-store';
import { useUi } from '../app/ui-store';

const BOM = new Uint8Array([0xef, 0xbb, 0xbf]);
let nextId = 1;

export function editorContent(envId: string, path: string): PaneContent {
  return { kind: 'editor', environmentId: envId, path };
}

/**
 * Opens `path` in an editor pane of `envId`'s main area, or focuses the pane that already shows
 * it, and brings the main area (the Terminals panel) forward; with `line` (from 1), its cursor goes
 * to the start of that line, scrolled into view.
 */
export async function openEditor(
  envId: string,
  path: string,
  options: { line?: number } = {},
): Promise<void> {
  showEditorPane(envId, path);
  useUi.getState().showPanel(envId, 'terminals');
  await openDocument(envId, path, options);
}

/** Focuses the pane showing `path` (activating its tab), else opens one in a new tab. */
function showEditorPane(envId: string, path: string): void {
  const panes = usePanes.getState();
  const content = editorContent(envId, path);
  for (const tab of envPanes(panes.byEnv, envId).tabs) {
    const leaf = leaves(tab.root).find((l) => sameContent(l.content, content));
    if (leaf) {
      panes.activateTab(envId, tab.id);
      panes.focusPane(envId, leaf.id);
      return;
    }
  }
  panes.openTab(envId, content);
}

/** The panes that showed `from` show `to` (a symlink opened as its target, a saved copy). */
function movePanes(envId: string, from: string, to: string): void {
  if (from !== to)
    usePanes.getState().replaceContent(envId, editorContent(envId, from), editorContent(envId, to));
}

/**
 * Reads `path` into a document for the editor pane that shows it (none is opened here: a pane
 * restored with the layout calls this itself). A document already open for it is kept.
 */
export async function openDocument(
  envId: string,
  path: string,
  options: { line?: number } = {},
): Promise<void> {
  const store = useEditors.getState();
  const open = store.tabs.find((t) => t.envId === envId && t.path === path);
  if (open) {
    store.activate(envId, open.id);
    if (options.line !== undefined) await goToLine(open.id, options.line);
    return;
  }
  const id = `editor-${nextId++}`;
  store.add({
    id,
    envId,
    path,
    name: baseName(path),
    content: { kind: 'loading' },
    dirty: false,
    save: { kind: 'idle' },
    conflict: null,
    deleted: false,
    closing: false,
    savedAt: null,
  });
  try {
    const file = await invoke('editor.open', { envId, path });
    // A symlink opens its target: a tab that already edits that file is the one to show.
    const twin = useEditors
      .getState()
      .tabs.find((t) => t.id !== id && t.envId === envId && t.path === file.path);
    if (twin) {
      closeEditor(id);
      useEditors.getState().activate(envId, twin.id);
      showEditorPane(envId, twin.path);
      if (options.line !== undefined) await goToLine(twin.id, options.line);
      return;
    }
    // The tab takes the target's path before its pane does: a pane showing a path no tab has closes it.
    useEditors.getState().patch(id, { path: file.path });
    movePanes(envId, path, file.path);
    await load(id, file);
    if (options.line !== undefined) await goToLine(id, options.line);
  } catch (error) {
    useEditors.getState().patch(id, { content: { kind: 'failed', error: errorMessage(error) } });
  }
}

/** CodeMirror and the editor's setup: a chunk of its own, loaded when the first file opens. */
const editorSetup = () => import('./editor-setup');

/** Moves the cursor of tab `id` to the start of `line` and scrolls it into view (a view not yet shown does on mount). */
async function goToLine(id: string, line: number): Promise<void> {
  const state = documentState(id);
  if (!state) return;
  const setup = await editorSetup();
  change(id, setup.lineSelection(state, line));
  focusView(id);
}

/** Puts a file as read from the server into tab `id`: a new document, or none for binary files. */
async function load(id: string, file: EditorFile): Promise<void> {
  const patch = useEditors.getState().patch;
  const content: EditorContent =
    file.kind === 'text'
      ? { kind: 'text', bom: file.bom, endings: lineEndingsOf(file.text), version: file.version }
      : file.kind === 'preview'
        ? { kind: 'preview', size: file.size, reason: file.reason }
        : { kind: 'binary', size: file.size, reason: file.reason };
  if (file.kind !== 'binary') {
    const setup = await editorSetup();
    putDocument(id, setup.createDocument(file.text, { readOnly: file.kind === 'preview' }));
    void setup.languageFor(baseName(file.path)).then((language) => {
      if (language) change(id, setup.languageChange(language));
    });
  } else dropDocument(id);
  patch(id, { path: file.path, name: baseName(file.path), content, conflict: null, deleted: false });
}

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
    // A new name in the folder (a copy, a recreated file) shows in its listing.
    if (mode === 'copy' || mode === 'recreate') void refreshIfShowing(tab.envId, parentPath(result.path));
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

function stopWaiting(id: string): void {
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

/** Closes tab `id`, or asks first (save / discard / cancel) when it has unsaved changes. */
export function requestClose(id: string): void {
  const tab = editorTab(id);
  if (!tab) return;
  if (tab.dirty) useEditors.getState().patch(id, { closing: true });
  else closeEditor(id);
}

/** Closes tab `id` without asking, and the pane that showed it. */
export function closeEditor(id: string): void {
  const tab = editorTab(id);
  stopWaiting(id);
  dropDocument(id);
  useEditors.getState().remove(id);
  if (tab) {
    const content = editorContent(tab.envId, tab.path);
    usePanes.getState().prune(tab.envId, (c) => !sameContent(c, content));
  }
}

/**
 * A file or folder was moved or renamed from `from` to `to` on the server: the editors of the files
 * in it follow (their tab, pane and next save go to the new path).
 */
export function followMove(envId: string, from: string, to: string): void {
  for (const tab of useEditors.getState().tabs) {
    if (tab.envId !== envId || (tab.path !== from && !tab.path.startsWith(`${from}/`))) continue;
    const moved = to + tab.path.slice(from.length);
    // The tab takes the new path before its pane does (see openDocument).
    useEditors.getState().patch(tab.id, { path: moved, name: baseName(moved) });
    movePanes(envId, tab.path, moved);
  }
}

/** The open editor tab of the file a pane shows, if its document is open. */
export function editorOfContent(content: PaneContent): EditorTab | undefined {
  if (content.kind !== 'editor') return undefined;
  return useEditors.getState().tabs.find((t) => t.envId === content.environmentId && t.path === content.path);
}

/** Closes the editors no pane shows any more (their pane closed, or its tab did). */
export function closeEditorsNotShown(shown: PaneContent[]): void {
  for (const tab of useEditors.getState().tabs) {
    const content = editorContent(tab.envId, tab.path);
    if (!shown.some((c) => sameContent(c, content))) closeEditor(tab.id);
  }
}

/** Closes every editor tab of `envId` without asking (its environment is gone). */
export function closeEditorsOf(envId: string): void {
  for (const tab of useEditors.getState().tabs) if (tab.envId === envId) closeEditor(tab.id);
}

export function cancelClose(id: string): void {
  useEditors.getState().patch(id, { closing: false });
}

/** *Save* in the close prompt: closes once saved; a conflict or failure keeps the tab open. */
export async function saveAndClose(id: string): Promise<void> {
  useEditors.getState().patch(id, { closing: false });
  if ((await saveEditor(id)) === 'saved') closeEditor(id);
}

/** The editor in the focused pane of `envId`'s active tab, if that pane is an editor. */
export function activeEditorId(envId: string): string | null {
  const panes = envPanes(usePanes.getState().byEnv, envId);
  const tab = panes.tabs.find((t) => t.id === panes.activeTabId);
  const leaf = tab && leaves(tab.root).find((l) => l.id === tab.focusedPaneId);
  return (leaf && editorOfContent(leaf.content)?.id) ?? null;
}

function baseName(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1) || '/';
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

/**
 * Makes an empty file in the folder the browser shows and opens it in the editor. A name already
 * taken is refused: the save mode that creates a file never replaces one.
 */
export async function makeFile(envId: string, name: string): Promise<void> {
  const dir = filesOf(useFiles.getState().byEnv, envId).path ?? '/';
  const path = joinPath(dir, name);
  try {
    // The one way Tether creates a file: a taken name is refused, never replaced.
    await invoke('files.createFile', { envId, path });
  } catch (error) {
    if (error instanceof IpcError && error.code === 'conflict')
      throw new Error(`${name} already exists in ${dir}.`);
    throw error;
  }
  await refreshIfShowing(envId, dir);
  await openEditor(envId, path);
}
