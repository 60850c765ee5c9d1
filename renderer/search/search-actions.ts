// Quick open and Find in files: the workspace root, its file listing from the host, a search run on
// the host (one at a time per environment, the previous one cancelled), and opening a result in
// the editor at its line.
import { errorMessage } from '../../shared/error-message';
import { invoke } from '../ipc/ipc-client';
import { filesOf, useFiles } from '../files/files-store';
import { workspaceFolderOf } from '../files/workspace-actions';
import { openEditor } from '../editor/editor-actions';
import { useUi } from '../app/ui-store';
import { formOf, useSearch } from './search-store';

/**
 * The folder Quick open lists and Find in files searches by default: the environment's workspace
 * folder, else the Files view's current folder, else its working (or home) folder.
 */
export async function workspaceRoot(envId: string): Promise<string> {
  // The environment's workspace folder first (Open folder…), then the folder Files shows.
  const shown = workspaceFolderOf(envId) ?? filesOf(useFiles.getState().byEnv, envId).path;
  if (shown) return shown;
  const { home, cwd } = await invoke('files.home', { envId });
  return cwd || home;
}

/** Loads the workspace's files for Quick open: the host's cached listing, or a fresh one. */
export async function loadWorkspaceFiles(envId: string, refresh = false): Promise<void> {
  const store = useSearch.getState();
  let root: string;
  try {
    root = await workspaceRoot(envId);
  } catch (error) {
    store.setListing(envId, { kind: 'failed', root: '', error: errorMessage(error) });
    return;
  }
  const current = store.listings[envId];
  if (!refresh && current?.kind === 'ready' && current.listing.root === root) {
    // Shown at once; the host answers from its cache, so asking again costs little.
  } else store.setListing(envId, { kind: 'loading', root });
  try {
    const listing = await invoke('search.files', { envId, root, refresh });
    useSearch.getState().setListing(envId, { kind: 'ready', listing });
  } catch (error) {
    useSearch.getState().setListing(envId, { kind: 'failed', root, error: errorMessage(error) });
  }
}

let nextSearch = 1;

/** Runs Find in files with the environment's form; a search still running there is cancelled. */
export async function findInFiles(envId: string): Promise<void> {
  const store = useSearch.getState();
  const form = formOf(store.forms, envId);
  if (!form.query) return;
  cancelFind(envId);
  const searchId = `find-${nextSearch++}`;
  let root: string;
  try {
    root = form.root.trim() || (await workspaceRoot(envId));
  } catch (error) {
    store.setFind(envId, { kind: 'failed', error: errorMessage(error) });
    return;
  }
  store.setFind(envId, { kind: 'running', searchId, root });
  const { query, caseSensitive, regex, wholeWord, include } = form;
  try {
    const result = await invoke('search.text', {
      envId,
      root,
      searchId,
      query,
      caseSensitive,
      regex,
      wholeWord,
      include,
    });
    if (isCurrent(envId, searchId)) useSearch.getState().setFind(envId, { kind: 'done', root, result });
  } catch (error) {
    if (isCurrent(envId, searchId))
      useSearch.getState().setFind(envId, { kind: 'failed', error: errorMessage(error) });
  }
}

function isCurrent(envId: string, searchId: string): boolean {
  const find = useSearch.getState().finds[envId];
  return find?.kind === 'running' && find.searchId === searchId;
}

/** Stops the environment's running search; it answers with what it found so far. */
export function cancelFind(envId: string): void {
  const find = useSearch.getState().finds[envId];
  if (find?.kind === 'running')
    void invoke('search.cancel', { searchId: find.searchId }).catch(() => undefined);
}

/** Opens `path` in the environment's editor, at `line` (from 1) when given. */
export function openFileAt(envId: string, path: string, line?: number): void {
  void openEditor(envId, path, line === undefined ? {} : { line });
}

/** Shows the Find in files panel with its query field focused. */
export function showFindInFiles(envId: string): void {
  useUi.getState().showPanel(envId, 'search');
  useSearch.getState().requestFindFocus();
}
