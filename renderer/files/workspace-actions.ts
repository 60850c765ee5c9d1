// The workspace of an environment in the Files view: the folder it is rooted in (opened, closed,
// remembered by the app), the file operations beyond rename and delete (new file, duplicate, copy
// and move by cut / copy / paste or by dragging), and keeping the open folder's listing current.
import { invoke } from '../ipc/ipc-client';
import { useEnvironments } from '../environments/environments-store';
import { ConflictChoices, isConflict } from '../transfers/conflict-choices';
import { navigate } from './file-actions';
import { filesOf, joinPath, keptSelection, parentPath, useFiles, type EnvFiles } from './files-store';
import type { FileEntry } from '../../shared/ipc';
import { followMove } from '../editor/editor-actions';

function state(envId: string): EnvFiles {
  return filesOf(useFiles.getState().byEnv, envId);
}

/** The folder `envId`'s workspace is rooted in, or null for its home. */
export function workspaceFolderOf(envId: string): string | null {
  return useEnvironments.getState().byId[envId]?.workspaceFolder ?? null;
}

/** Roots the workspace in `path` (the app checks it is a folder and remembers it) and lists it. */
export async function openWorkspaceFolder(envId: string, path: string): Promise<void> {
  const view = await invoke('environments.setWorkspaceFolder', { id: envId, path });
  useEnvironments.getState().upsert(view);
  useFiles.getState().patch(envId, { tree: {}, expanded: {} });
  await navigate(envId, view.workspaceFolder ?? path);
}

/** Back to the home folder as the root. */
export async function closeWorkspaceFolder(envId: string): Promise<void> {
  const view = await invoke('environments.setWorkspaceFolder', { id: envId, path: null });
  useEnvironments.getState().upsert(view);
  useFiles.getState().patch(envId, { tree: {}, expanded: {} });
  const { home } = await invoke('files.home', { envId });
  await navigate(envId, home);
}

/** After a change in the shown folder: the tree reloads, and the listing. */
async function changed(envId: string): Promise<void> {
  useFiles.getState().patch(envId, { tree: {} });
  const path = state(envId).path;
  if (path) await navigate(envId, path);
}

/** Creates an empty file in the shown folder; a taken name is refused, never replaced. */
export async function makeFile(envId: string, name: string): Promise<void> {
  await invoke('files.createFile', { envId, path: joinPath(state(envId).path ?? '/', name) });
  await changed(envId);
}

/** Copies each path beside itself under its first free numbered name. */
export async function duplicateEntries(envId: string, paths: string[]): Promise<void> {
  try {
    for (const path of paths) await invoke('files.duplicate', { envId, path });
  } finally {
    await changed(envId);
  }
}

/** Cut or Copy: remembers the entries for the next Paste. */
export function putOnClipboard(envId: string, mode: 'cut' | 'copy', paths: string[]): void {
  useFiles.getState().patch(envId, { clipboard: paths.length > 0 ? { mode, paths } : null });
}

/** Paste into `dir`: copies, or moves what was cut (then the clipboard empties). */
export async function pasteInto(envId: string, dir: string): Promise<void> {
  const clipboard = state(envId).clipboard;
  if (!clipboard) return;
  if (clipboard.mode === 'cut') useFiles.getState().patch(envId, { clipboard: null });
  await transfer(envId, clipboard.mode === 'cut' ? 'move' : 'copy', clipboard.paths, dir);
}

/** Moves `paths` into `dir` (a drag onto a folder). */
export function moveInto(envId: string, paths: string[], dir: string): Promise<void> {
  return transfer(envId, 'move', paths, dir);
}

/**
 * Copies or moves each of `paths` into `dir` under its own name; a taken name is asked about
 * (Replace / Keep both / Skip, or the same for the rest) and never replaced unasked.
 */
async function transfer(envId: string, how: 'copy' | 'move', paths: string[], dir: string): Promise<void> {
  // A move into the folder it is in already changes nothing.
  const todo = how === 'move' ? paths.filter((p) => parentPath(p) !== dir) : paths;
  const choices = new ConflictChoices(dir, todo.length);
  const send = async (from: string, to: string, ifExists: 'fail' | 'replace' | 'keepBoth') => {
    if (how === 'copy') return invoke('files.copy', { envId, from, to, ifExists });
    const moved = await invoke('files.rename', { envId, from, to, ifExists });
    followMove(envId, from, moved.path ?? to);
  };
  try {
    for (const from of todo) {
      const name = from.slice(from.lastIndexOf('/') + 1);
      const to = joinPath(dir, name);
      try {
        await send(from, to, 'fail');
      } catch (error) {
        if (!isConflict(error)) throw error;
        const choice = await choices.decide(name);
        if (choice !== 'skip') await send(from, to, choice);
      }
    }
  } finally {
    await changed(envId);
  }
}

/** How often the open folder is listed again to catch changes made elsewhere (see docs/files.md). */
export const FOLDER_POLL_MS = 3_000;
/** A listing that took this long waits this many times as long before the next one. */
const FOLDER_POLL_BACKOFF = 10;

/** The pause before the next listing, after one that took `listedInMs`: a big or slow folder waits longer. */
export function folderPollDelay(listedInMs: number): number {
  return Math.max(FOLDER_POLL_MS, listedInMs * FOLDER_POLL_BACKOFF);
}

/** What tells two listings apart: every entry's name, kind, size and modified time. */
function fingerprint(entries: FileEntry[]): string {
  return JSON.stringify(entries.map((e) => [e.name, e.kind, e.size, e.modifiedAtMs]));
}

/**
 * Lists the shown folder again and takes the new entries if anything changed there, keeping the
 * cursor and marks on entries that are still there (no reload flicker, no lost place).
 */
export async function recheckFolder(envId: string): Promise<void> {
  const before = state(envId);
  if (!before.path || before.loading) return;
  const result = await invoke('files.list', { envId, path: before.path, showHidden: before.showHidden });
  const now = state(envId);
  // The user moved on meanwhile: this listing is of a folder no longer shown.
  if (now.path !== result.path || now.loading) return;
  if (fingerprint(now.entries) === fingerprint(result.entries)) return;
  useFiles.getState().patch(envId, (f) => ({
    entries: result.entries,
    ...keptSelection(f, result.path, result.entries),
    tree: { ...f.tree, [result.path]: result.entries.filter((e) => e.kind === 'directory') },
  }));
}
