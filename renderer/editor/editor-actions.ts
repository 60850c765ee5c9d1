// What the user can do with editors: open a remote file in an editor pane of the main area (or
// focus the pane that has it), follow a file moved on the server, make a new file, and close an
// editor, asking first when it has unsaved changes. A file has at most one document and one pane.
// Saving and conflicts are editor-save.ts.
import { IpcError, type PaneContent } from '../../shared/ipc';
import { errorMessage } from '../../shared/error-message';
import { change, documentState, dropDocument, focusView } from './editor-documents';
import { baseName, editorContent, editorSetup, load, movePanes } from './editor-load';
import { saveEditor, stopWaiting } from './editor-save';
import { invoke } from '../ipc/ipc-client';
import { editorTab, useEditors, type EditorTab } from './editors-store';
import { filesOf, joinPath, useFiles } from '../files/files-store';
import { refreshIfShowing } from '../files/file-actions';
import { envPanes, leaves, sameContent, usePanes } from '../panes/panes-store';
import { useUi } from '../app/ui-store';

let nextId = 1;

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

/** Moves the cursor of tab `id` to the start of `line` and scrolls it into view (a view not yet shown does on mount). */
async function goToLine(id: string, line: number): Promise<void> {
  const state = documentState(id);
  if (!state) return;
  const setup = await editorSetup();
  change(id, setup.lineSelection(state, line));
  focusView(id);
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
