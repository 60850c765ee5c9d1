// How the file list's cursor and marked entries follow the mouse and the keyboard: click, Ctrl+click
// (toggle), Shift+click and Shift+arrows (a range from the anchor), arrows and Home/End, Enter,
// Backspace, F2, Delete, Ctrl+A, and type-ahead. The hook holds only the anchor and the typed
// prefix; where the cursor is and what is marked stay with the caller (the files store).
import { useRef, type KeyboardEvent, type MouseEvent } from 'react';
import type { FileEntry } from '../../shared/ipc';
import { nextTypeAhead, TYPE_AHEAD_RESET_MS } from './type-ahead';

export interface FileSelectionOptions {
  /** The entries in list order. */
  entries: FileEntry[];
  /** The path under the cursor. */
  cursor: string | null;
  marked: string[];
  /** Moves the cursor to `entry` and marks `range` (the entry alone unless a range is given). */
  select: (entry: FileEntry, range: string[]) => void;
  /** Marks `paths` without moving the cursor. */
  mark: (paths: string[]) => void;
  /** Enter: a folder opens, a file opens in the editor. */
  activate: (entry: FileEntry) => void;
  /** Backspace. */
  goUp: () => void;
  /** F2. */
  rename: (entry: FileEntry) => void;
  /** Delete, with the entries it applies to (`targetsOf`). */
  remove: (entries: FileEntry[]) => void;
  /** Scrolls the entry the cursor moved to into view. */
  reveal?: (path: string) => void;
  /** The clock of type-ahead (tests pass their own). */
  now?: () => number;
}

/** The keys of a key press, as much of a KeyboardEvent as the selection reads. */
export interface Keys {
  key: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

export interface FileSelection {
  /** Click, Ctrl+click and Shift+click on a row. */
  onRowClick: (e: Pick<MouseEvent, 'shiftKey' | 'ctrlKey' | 'metaKey'>, entry: FileEntry) => void;
  /** A plain click on an entry's name, which opens it: the anchor moves there. */
  anchorAt: (path: string) => void;
  /** Moves the cursor to the entry at `index` (clamped), extending the range from the anchor if asked. */
  moveCursor: (index: number, extend: boolean) => void;
  /** Handles a key press; false for a key the list does not use. */
  onKey: (keys: Keys) => boolean;
  /** The list's onKeyDown: keys pressed on the list itself (not on a button in it). */
  onListKey: (e: KeyboardEvent) => void;
  /** The entries an action applies to: the marked ones when `entry` is among them, else `entry`. */
  targetsOf: (entry: FileEntry) => FileEntry[];
}

export function useFileSelection(options: FileSelectionOptions): FileSelection {
  const { entries, cursor, marked } = options;
  const now = options.now ?? Date.now;
  /** Where a Shift selection starts (the last entry clicked or moved to without Shift). */
  const anchor = useRef<string | null>(null);
  const typeAhead = useRef({ text: '', at: Number.NEGATIVE_INFINITY });
  const markedSet = new Set(marked);

  const targetsOf = (entry: FileEntry) =>
    markedSet.has(entry.path) && markedSet.size > 1 ? entries.filter((e) => markedSet.has(e.path)) : [entry];

  const onRowClick: FileSelection['onRowClick'] = (e, entry) => {
    if (e.shiftKey && anchor.current) {
      options.select(entry, rangeOf(entries, anchor.current, entry.path));
      return;
    }
    anchor.current = entry.path;
    if (e.ctrlKey || e.metaKey) {
      options.mark(
        markedSet.has(entry.path) ? marked.filter((p) => p !== entry.path) : [...marked, entry.path],
      );
      return;
    }
    options.select(entry, [entry.path]);
  };

  const moveCursor = (index: number, extend: boolean) => {
    const entry = entries[Math.max(0, Math.min(entries.length - 1, index))];
    if (!entry) return;
    if (!extend || !anchor.current) anchor.current = entry.path;
    options.select(entry, extend ? rangeOf(entries, anchor.current, entry.path) : [entry.path]);
    options.reveal?.(entry.path);
  };

  const onKey = (keys: Keys): boolean => {
    const index = entries.findIndex((en) => en.path === cursor);
    const current = entries[index] ?? null;
    const { key } = keys;
    const command = !!(keys.ctrlKey || keys.metaKey);
    if (key === 'ArrowDown' || key === 'ArrowUp') {
      moveCursor(index < 0 ? 0 : index + (key === 'ArrowDown' ? 1 : -1), !!keys.shiftKey);
    } else if (key === 'Home' || key === 'End') {
      moveCursor(key === 'Home' ? 0 : entries.length - 1, !!keys.shiftKey);
    } else if (key === 'Enter' && current) {
      options.activate(current);
    } else if (key === 'Backspace') {
      options.goUp();
    } else if (key === 'F2' && current) {
      options.rename(current);
    } else if (key === 'Delete' && current) {
      options.remove(targetsOf(current));
    } else if (command && key.toLowerCase() === 'a') {
      options.mark(entries.map((en) => en.path));
    } else if (key.length === 1 && !command && !keys.altKey && key !== ' ') {
      const at = now();
      const text = at - typeAhead.current.at > TYPE_AHEAD_RESET_MS ? key : typeAhead.current.text + key;
      typeAhead.current = { text, at };
      const next = nextTypeAhead(
        entries.map((en) => en.name),
        index,
        text,
      );
      if (next !== null) moveCursor(next, false);
    } else {
      return false;
    }
    return true;
  };

  const onListKey = (e: KeyboardEvent) => {
    if (e.target !== e.currentTarget) return;
    if (!onKey(e)) return;
    e.preventDefault();
    e.stopPropagation();
  };

  const anchorAt = (path: string) => {
    anchor.current = path;
  };

  return { onRowClick, anchorAt, moveCursor, onKey, onListKey, targetsOf };
}

/** The paths from `from` to `to` in list order, both included. */
export function rangeOf(entries: FileEntry[], from: string, to: string): string[] {
  const a = entries.findIndex((e) => e.path === from);
  const b = entries.findIndex((e) => e.path === to);
  if (a < 0 || b < 0) return [to];
  return entries.slice(Math.min(a, b), Math.max(a, b) + 1).map((e) => e.path);
}
