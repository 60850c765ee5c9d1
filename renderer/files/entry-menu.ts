// The actions on one entry of the file list, as its context menu and its "More actions" menu show
// them: a folder opens, gets a terminal, takes a paste and can become the workspace folder; a file
// previews and opens in the editor; both can be cut, copied and duplicated.
import {
  ClipboardPaste,
  Copy,
  CopyPlus,
  Download,
  FilePen,
  Files,
  FolderOpen,
  FolderRoot,
  Pencil,
  Scissors,
  SquareTerminal,
  Trash2,
} from 'lucide-react';
import type { FileEntry } from '../../shared/ipc';
import type { MenuEntry } from '../ui/popup-menu';

/** What each menu item does; the file browser binds them to its environment. */
export interface EntryCommands {
  /** A folder is listed, a file previewed. */
  open: (entry: FileEntry) => void;
  edit: (entry: FileEntry) => void;
  download: (entry: FileEntry) => void;
  rename: (entry: FileEntry) => void;
  copyPath: (entry: FileEntry) => void;
  openTerminal: (entry: FileEntry) => void;
  /** Asks before deleting the entries the action applies to. */
  remove: (entry: FileEntry) => void;
  /** Cut, Copy and Duplicate apply to the marked entries (the cursor's alone by default). */
  cut: (entry: FileEntry) => void;
  copy: (entry: FileEntry) => void;
  duplicate: (entry: FileEntry) => void;
  /** Pastes what Cut or Copy took into the folder; absent while nothing was taken. */
  pasteInto?: (folder: FileEntry) => void;
  openAsWorkspace: (folder: FileEntry) => void;
}

export function menuFor(entry: FileEntry, commands: EntryCommands): MenuEntry[] {
  const folder = entry.kind === 'directory';
  return [
    { label: folder ? 'Open' : 'Preview', icon: FolderOpen, onSelect: () => commands.open(entry) },
    ...(folder
      ? []
      : [{ label: 'Edit', icon: FilePen, keys: 'Enter', onSelect: () => commands.edit(entry) }]),
    { label: 'Download', icon: Download, onSelect: () => commands.download(entry) },
    { label: 'Rename', icon: Pencil, keys: 'F2', onSelect: () => commands.rename(entry) },
    { label: 'Cut', icon: Scissors, keys: 'Ctrl+X', onSelect: () => commands.cut(entry) },
    { label: 'Copy', icon: Files, keys: 'Ctrl+C', onSelect: () => commands.copy(entry) },
    ...(folder && commands.pasteInto
      ? [{ label: 'Paste into', icon: ClipboardPaste, onSelect: () => commands.pasteInto?.(entry) }]
      : []),
    { label: 'Duplicate', icon: CopyPlus, keys: 'Ctrl+D', onSelect: () => commands.duplicate(entry) },
    { label: 'Copy path', icon: Copy, onSelect: () => commands.copyPath(entry) },
    ...(folder
      ? [
          { label: 'Open terminal here', icon: SquareTerminal, onSelect: () => commands.openTerminal(entry) },
          {
            label: 'Open as workspace folder',
            icon: FolderRoot,
            onSelect: () => commands.openAsWorkspace(entry),
          },
        ]
      : []),
    'separator',
    { label: 'Delete', icon: Trash2, keys: 'Delete', danger: true, onSelect: () => commands.remove(entry) },
  ];
}
