// File browser state per environment: current directory and its entries, the lazily loaded tree,
// sort order, hidden toggle, selection, preview, and what Cut or Copy took.
import { create } from 'zustand';
import type { FileEntry, FilePreview } from '../../shared/ipc';

export type SortKey = 'name' | 'size' | 'modified';

export interface EnvFiles {
  path: string | null;
  entries: FileEntry[];
  /** Dot-entries of the folder that the hidden toggle keeps out of `entries`. */
  hiddenCount: number;
  loading: boolean;
  error: string | null;
  showHidden: boolean;
  sort: { key: SortKey; ascending: boolean };
  /** The entry the keyboard cursor is on (its file is previewed). */
  selected: string | null;
  /** Entries picked for a multi-entry action (Shift/Ctrl selection); the cursor's alone by default. */
  marked: string[];
  preview: { path: string; preview: FilePreview | null; error: string | null } | null;
  /** Children of expanded directories in the tree, by path. */
  tree: Record<string, FileEntry[]>;
  expanded: Record<string, boolean>;
  /** What Cut or Copy took, for the next Paste. */
  clipboard: { mode: 'cut' | 'copy'; paths: string[] } | null;
}

const EMPTY_FILES: EnvFiles = {
  path: null,
  entries: [],
  hiddenCount: 0,
  loading: false,
  error: null,
  showHidden: false,
  sort: { key: 'name', ascending: true },
  selected: null,
  marked: [],
  preview: null,
  tree: {},
  expanded: {},
  clipboard: null,
};

interface FilesState {
  byEnv: Record<string, EnvFiles>;
  patch: (envId: string, patch: Partial<EnvFiles> | ((f: EnvFiles) => Partial<EnvFiles>)) => void;
}

export const useFiles = create<FilesState>((set) => ({
  byEnv: {},
  patch: (envId, patch) =>
    set((s) => {
      const current = s.byEnv[envId] ?? EMPTY_FILES;
      const change = typeof patch === 'function' ? patch(current) : patch;
      return { byEnv: { ...s.byEnv, [envId]: { ...current, ...change } } };
    }),
}));

export function filesOf(byEnv: Record<string, EnvFiles>, envId: string): EnvFiles {
  return byEnv[envId] ?? EMPTY_FILES;
}

/**
 * What a new listing leaves of the cursor, the marks and the preview: in the folder already shown,
 * the entries still there keep them (a click while a Refresh is on its way is not undone by it);
 * another folder starts with none.
 */
export function keptSelection(
  f: EnvFiles,
  path: string,
  entries: FileEntry[],
): Pick<EnvFiles, 'selected' | 'marked' | 'preview'> {
  if (f.path !== path) return { selected: null, marked: [], preview: null };
  const present = new Set(entries.map((e) => e.path));
  const selected = f.selected !== null && present.has(f.selected) ? f.selected : null;
  return {
    selected,
    marked: f.marked.filter((p) => present.has(p)),
    preview: selected !== null && f.preview?.path === selected ? f.preview : null,
  };
}

/** Directories first, then by the chosen column. */
export function sortEntries(entries: FileEntry[], sort: EnvFiles['sort']): FileEntry[] {
  const dir = sort.ascending ? 1 : -1;
  return [...entries].sort((a, b) => {
    const aDir = a.kind === 'directory' ? 0 : 1;
    const bDir = b.kind === 'directory' ? 0 : 1;
    if (aDir !== bDir) return aDir - bDir;
    let cmp = 0;
    if (sort.key === 'size') cmp = (a.size ?? -1) - (b.size ?? -1);
    else if (sort.key === 'modified') cmp = (a.modifiedAtMs ?? 0) - (b.modifiedAtMs ?? 0);
    if (cmp === 0) cmp = a.name.localeCompare(b.name);
    return cmp * dir;
  });
}

/** Joins a POSIX-style directory and a name (remote paths are absolute, '/'-separated). */
export function joinPath(dir: string, name: string): string {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

/** The folders from the root down to `path` itself: "/a/b" → ["/", "/a", "/a/b"]. */
export function pathChain(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  return ['/', ...parts.map((_, i) => `/${parts.slice(0, i + 1).join('/')}`)];
}

export function parentPath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const index = trimmed.lastIndexOf('/');
  return index <= 0 ? '/' : trimmed.slice(0, index);
}
