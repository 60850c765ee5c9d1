// What the user can do in the file browser: navigate, expand the tree, preview, and change files.
import { invoke } from '../ipc/ipc-client';
import { useRecentPaths } from './recent-paths-store';
import { useEnvironments } from '../environments/environments-store';
import { errorMessage } from '../../shared/error-message';
import {
  filesOf,
  joinPath,
  keptSelection,
  parentPath,
  pathChain,
  useFiles,
  type SortKey,
} from './files-store';
import { ConflictChoices, isConflict } from '../transfers/conflict-choices';
import { followMove } from '../editor/editor-actions';

function state(envId: string) {
  return filesOf(useFiles.getState().byEnv, envId);
}

/** How often the first load of an environment's home folder is tried again, and how far apart. */
export const HOME_RETRIES = 5;
export const HOME_RETRY_MS = 2_000;

/**
 * Lists the environment's workspace folder, else its working (else home) folder. With `retries`, a load that leaves no folder
 * shown is tried again that many times, HOME_RETRY_MS apart: the first load can fail right at
 * connect, and the list would stay empty until the user navigates. `signal` stops the retries.
 */
export async function openHome(
  envId: string,
  { retries = 0, signal }: { retries?: number; signal?: AbortSignal } = {},
): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const folder = useEnvironments.getState().byId[envId]?.workspaceFolder;
      if (folder) await navigate(envId, folder);
      // A workspace folder gone from the server leaves the home folder shown.
      if (!folder || state(envId).path === null) {
        const { home, cwd } = await invoke('files.home', { envId });
        await navigate(envId, cwd || home);
      }
    } catch (error) {
      useFiles.getState().patch(envId, { error: errorMessage(error) });
    }
    if (signal?.aborted || attempt >= retries || state(envId).path !== null) return;
    if (!(await pause(HOME_RETRY_MS, signal))) return;
  }
}

/** Waits `ms`; false if `signal` aborted the wait. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (waited: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
      resolve(waited);
    };
    const aborted = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', aborted);
  });
}

export async function navigate(envId: string, path: string): Promise<void> {
  const patch = useFiles.getState().patch;
  patch(envId, { loading: true, error: null });
  try {
    const result = await invoke('files.list', { envId, path, showHidden: state(envId).showHidden });
    patch(envId, (f) => ({
      path: result.path,
      entries: result.entries,
      hiddenCount: result.hiddenCount ?? 0,
      loading: false,
      ...keptSelection(f, result.path, result.entries),
      tree: { ...f.tree, [result.path]: result.entries.filter((e) => e.kind === 'directory') },
    }));
  } catch (error) {
    patch(envId, { loading: false, error: errorMessage(error) });
    return;
  }
  // The folder listed again (Refresh, a change in it): its file under the cursor is read afresh,
  // unless the read of that preview is still on its way.
  const { selected, preview } = state(envId);
  if (preview && selected === preview.path && (preview.preview || preview.error))
    void previewFile(envId, selected, { quiet: true });
  const opened = state(envId).path ?? path;
  useRecentPaths.getState().visited(envId, opened);
  await revealInTree(envId, opened);
}

/** Opens the tree down to `path`, loading each folder on the way that is not loaded yet. */
async function revealInTree(envId: string, path: string): Promise<void> {
  const chain = pathChain(path);
  // Loaded before they open, so an opening node finds its children and does not load them again.
  for (const dir of chain) if (!state(envId).tree[dir]) await loadTreeNode(envId, dir);
  useFiles.getState().patch(envId, (f) => ({
    expanded: { ...f.expanded, ...Object.fromEntries(chain.map((dir) => [dir, true])) },
  }));
}

/** Loads the subfolders of a tree node (also one left expanded after the tree was refreshed). */
export async function loadTreeNode(envId: string, path: string): Promise<void> {
  try {
    const result = await invoke('files.list', { envId, path, showHidden: state(envId).showHidden });
    useFiles.getState().patch(envId, (cur) => ({
      tree: { ...cur.tree, [path]: result.entries.filter((e) => e.kind === 'directory') },
    }));
  } catch (error) {
    useFiles.getState().patch(envId, { error: errorMessage(error) });
  }
}

export function refresh(envId: string): Promise<void> {
  const path = state(envId).path;
  return path ? navigate(envId, path) : openHome(envId);
}

/** After a change in `dir`: the folder tree is reloaded, and the listing if it shows `dir`. */
/** Lists `dir` again if it is the folder shown (sizes and times after a save); the tree stays. */
export async function relistIfShowing(envId: string, dir: string): Promise<void> {
  if (state(envId).path === dir) await refresh(envId);
}

export async function refreshIfShowing(envId: string, dir: string): Promise<void> {
  useFiles.getState().patch(envId, { tree: {} });
  if (state(envId).path === dir) await refresh(envId);
}

export function goUp(envId: string): Promise<void> {
  const path = state(envId).path;
  return navigate(envId, path ? parentPath(path) : '/');
}

export async function toggleHidden(envId: string): Promise<void> {
  useFiles.getState().patch(envId, (f) => ({ showHidden: !f.showHidden, tree: {} }));
  await refresh(envId);
}

export function sortBy(envId: string, key: SortKey): void {
  useFiles.getState().patch(envId, (f) => ({
    sort: { key, ascending: f.sort.key === key ? !f.sort.ascending : true },
  }));
}

export async function toggleTreeNode(envId: string, path: string): Promise<void> {
  const patch = useFiles.getState().patch;
  const f = state(envId);
  if (f.expanded[path]) {
    patch(envId, { expanded: { ...f.expanded, [path]: false } });
    return;
  }
  patch(envId, { expanded: { ...f.expanded, [path]: true } });
  if (!f.tree[path]) await loadTreeNode(envId, path);
}

/** Moves the cursor to `path` and marks `marked`, by default the entry alone; a file is previewed. */
export async function selectEntry(
  envId: string,
  path: string,
  isFile: boolean,
  marked: string[] = [path],
): Promise<void> {
  useFiles.getState().patch(envId, { selected: path, marked, preview: null });
  if (isFile) await previewFile(envId, path);
}

/**
 * Reads the preview of the file at `path`, shown while it is still the one under the cursor.
 * `quiet` keeps the preview in view until the new one arrives (a re-read, not a new file).
 */
export async function previewFile(envId: string, path: string, { quiet = false } = {}): Promise<void> {
  const patch = useFiles.getState().patch;
  if (!quiet) patch(envId, { preview: { path, preview: null, error: null } });
  try {
    const preview = await invoke('files.preview', { envId, path });
    patch(envId, (f) => (f.selected === path ? { preview: { path, preview, error: null } } : {}));
  } catch (error) {
    patch(envId, (f) =>
      f.selected === path ? { preview: { path, preview: null, error: errorMessage(error) } } : {},
    );
  }
}

export async function makeFolder(envId: string, name: string): Promise<void> {
  const dir = state(envId).path ?? '/';
  await invoke('files.mkdir', { envId, path: joinPath(dir, name) });
  useFiles.getState().patch(envId, { tree: {} });
  await refresh(envId);
}

/** Renames; a taken name is asked about (Replace / Keep both / Skip) and never replaced unasked. */
export async function renameEntry(envId: string, from: string, newName: string): Promise<void> {
  const dir = parentPath(from);
  const to = joinPath(dir, newName);
  let moved: string;
  try {
    moved = (await invoke('files.rename', { envId, from, to })).path ?? to;
  } catch (error) {
    if (!isConflict(error)) throw error;
    const choice = await new ConflictChoices(dir, 1).decide(newName);
    if (choice === 'skip') return;
    moved = (await invoke('files.rename', { envId, from, to, ifExists: choice })).path ?? to;
  }
  followMove(envId, from, moved);
  useFiles.getState().patch(envId, { tree: {} });
  await refresh(envId);
}

export async function deleteEntry(envId: string, path: string): Promise<void> {
  await deleteEntries(envId, [path]);
}

/** Deletes each path in turn; stops at the first failure (the list then shows what is left). */
export async function deleteEntries(envId: string, paths: string[]): Promise<void> {
  try {
    for (const path of paths) await invoke('files.delete', { envId, path });
  } finally {
    useFiles.getState().patch(envId, { tree: {} });
    await refresh(envId);
  }
}

/** Marks `marked` without moving the cursor or its preview (Ctrl+click, Ctrl+A). */
export function markEntries(envId: string, marked: string[]): void {
  useFiles.getState().patch(envId, { marked });
}
