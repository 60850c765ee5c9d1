// The actions on one entry of the file list, as its context menu and its "More actions" menu show
// them: a folder opens and gets a terminal, a file previews and opens in the editor.
import { Copy, Download, FilePen, FolderOpen, Pencil, SquareTerminal, Trash2 } from 'lucide-react';
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
    { label: 'Copy path', icon: Copy, onSelect: () => commands.copyPath(entry) },
    ...(folder
      ? [{ label: 'Open terminal here', icon: SquareTerminal, onSelect: () => commands.openTerminal(entry) }]
      : []),
    'separator',
    { label: 'Delete', icon: Trash2, keys: 'Delete', danger: true, onSelect: () => commands.remove(entry) },
  ];
}
