// Turns what the user gave the page — a drop of files and folders, a folder chosen with the
// browser's folder picker (showDirectoryPicker), or the files of one chosen with
// <input webkitdirectory> — into local folders to upload: each folder's subfolders (empty ones too,
// where the browser shows them) and its files with their paths inside it.

/** A folder on the user's computer, as the browser lets the page read it. */
export interface LocalFolder {
  name: string;
  /** Subfolders, parents first, "/"-separated paths inside the folder. */
  folders: string[];
  files: Array<{ path: string; file: File }>;
}

/** What a drop brought: plain files (uploaded as before) and folders. */
export interface DroppedItems {
  files: File[];
  folders: LocalFolder[];
}

/**
 * Reads a drop. The entries must be taken while the drop event runs (the browser empties the
 * DataTransfer afterwards), so call this synchronously from the handler; it walks them later.
 */
export function readDrop(transfer: DataTransfer): Promise<DroppedItems> {
  // A DataTransfer without items (made by a script, not by a drag) still has its files.
  const entries = transfer.items
    ? [...transfer.items]
        .filter((item) => item.kind === 'file')
        .map((item) => ({ entry: item.webkitGetAsEntry(), file: item.getAsFile() }))
    : [...transfer.files].map((file) => ({ entry: null, file }));
  return (async () => {
    const dropped: DroppedItems = { files: [], folders: [] };
    for (const { entry, file } of entries) {
      if (entry?.isDirectory) dropped.folders.push(await walkEntry(entry as FileSystemDirectoryEntry));
      else if (file) dropped.files.push(file);
    }
    return dropped;
  })();
}

async function walkEntry(root: FileSystemDirectoryEntry): Promise<LocalFolder> {
  const folder: LocalFolder = { name: root.name, folders: [], files: [] };
  const visit = async (dir: FileSystemDirectoryEntry, prefix: string): Promise<void> => {
    for (const entry of await readAll(dir)) {
      const path = prefix + entry.name;
      if (entry.isDirectory) {
        folder.folders.push(path);
        await visit(entry as FileSystemDirectoryEntry, `${path}/`);
      } else {
        const file = await new Promise<File>((resolve, reject) =>
          (entry as FileSystemFileEntry).file(resolve, reject),
        );
        folder.files.push({ path, file });
      }
    }
  };
  await visit(root, '');
  return folder;
}

/** All entries of a folder: readEntries hands them out in batches until it returns none. */
async function readAll(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

/**
 * The folders behind the files of an <input webkitdirectory> (each file's webkitRelativePath starts
 * with the chosen folder's name). Such an input lists files only, so empty folders do not show.
 */
export function foldersOfPicked(files: Iterable<File>): LocalFolder[] {
  const byName = new Map<string, { folder: LocalFolder; parents: Set<string> }>();
  for (const file of files) {
    const [name, ...rest] = file.webkitRelativePath.split('/');
    if (!name || rest.length === 0) continue;
    let found = byName.get(name);
    if (!found) {
      found = { folder: { name, folders: [], files: [] }, parents: new Set() };
      byName.set(name, found);
    }
    found.folder.files.push({ path: rest.join('/'), file });
    for (let i = 1; i < rest.length; i++) found.parents.add(rest.slice(0, i).join('/'));
  }
  return [...byName.values()].map(({ folder, parents }) => ({
    ...folder,
    // Parents first: a path's parent has fewer parts.
    folders: [...parents].sort((a, b) => a.split('/').length - b.split('/').length),
  }));
}

/** The part of a folder handle (File System Access API) the walk reads. */
interface DirectoryHandle {
  kind: 'directory';
  name: string;
  values(): AsyncIterable<DirectoryHandle | FileHandle>;
}

interface FileHandle {
  kind: 'file';
  name: string;
  getFile(): Promise<File>;
}

type DirectoryPicker = (options?: { mode?: 'read' }) => Promise<DirectoryHandle>;

/**
 * The browser's folder picker, where it has one (Chromium and Electron, on a secure origin). Unlike
 * <input webkitdirectory>, which lists only files, the handle it gives shows empty folders too.
 */
export function folderPicker(): (() => Promise<LocalFolder | null>) | null {
  const pick = (window as unknown as { showDirectoryPicker?: DirectoryPicker }).showDirectoryPicker;
  if (typeof pick !== 'function') return null;
  return async () => {
    let root: DirectoryHandle;
    try {
      root = await pick.call(window, { mode: 'read' });
    } catch (error) {
      // The user closed the picker.
      if (error instanceof DOMException && error.name === 'AbortError') return null;
      throw error;
    }
    return walkHandle(root);
  };
}

async function walkHandle(root: DirectoryHandle): Promise<LocalFolder> {
  const folder: LocalFolder = { name: root.name, folders: [], files: [] };
  const visit = async (dir: DirectoryHandle, prefix: string): Promise<void> => {
    for await (const entry of dir.values()) {
      const path = prefix + entry.name;
      if (entry.kind === 'directory') {
        folder.folders.push(path);
        await visit(entry, `${path}/`);
      } else folder.files.push({ path, file: await entry.getFile() });
    }
  };
  await visit(root, '');
  return folder;
}
