// The file browser of one environment: its workspace (the folder it is rooted in, listed again
// every few seconds to catch changes made elsewhere), a toolbar with a path bar, a lazy folder
// tree, a sortable list driven by mouse and keyboard, the preview beside it, file operations
// (new, rename, delete, cut / copy / paste, duplicate, drag to move), uploads of files and folders
// by button or drag-and-drop, downloads of both, and the transfer queue.
import { useEffect, useRef, useState } from 'react';
import type { EnvironmentView, FileEntry } from '../../shared/ipc';
import { HOME_RETRIES, navigate, openHome, selectEntry } from './file-actions';
import { openEditor } from '../editor/editor-actions';
import { openShell } from '../processes/process-actions';
import { readDrop, type LocalFolder } from '../transfers/local-folders';
import { downloadFile, downloadFolder, uploadFiles, uploadFolder } from '../transfers/transfer-actions';
import { errorMessage } from '../../shared/error-message';
import { filesOf, sortEntries, useFiles, type EnvFiles } from './files-store';
import { useUi } from '../app/ui-store';
import { ConflictPrompt } from '../transfers/conflict-dialog';
import { FilePreviewView } from './file-preview';
import { TransferQueue } from '../transfers/transfer-queue';
import { FileToolbar } from './file-toolbar';
import { FolderTree } from './folder-tree';
import { FileTable } from './file-table';
import { FilePrompts, type FilePrompt } from './file-prompts';
import type { EntryCommands } from './entry-menu';
import type { EntryOperations } from './file-table';
import {
  closeWorkspaceFolder,
  duplicateEntries,
  FOLDER_POLL_MS,
  folderPollDelay,
  moveInto,
  openWorkspaceFolder,
  pasteInto,
  putOnClipboard,
  recheckFolder,
} from './workspace-actions';

export function FileBrowser({ env }: { env: EnvironmentView }) {
  const files = useFiles((s) => filesOf(s.byEnv, env.id));
  const focusRequest = useUi((s) => s.fileFocusRequest);
  const askOpenFolder = useUi((s) => s.openFolderRequest === env.id);
  const [prompt, setPrompt] = useState<FilePrompt | null>(null);
  const [opError, setOpError] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const connected = env.link.kind === 'connected';

  useEffect(() => {
    if (files.path !== null || !connected) return;
    const stop = new AbortController();
    void openHome(env.id, { retries: HOME_RETRIES, signal: stop.signal });
    return () => stop.abort();
  }, [env.id, files.path, connected]);
  useEffect(() => {
    if (focusRequest > 0) listRef.current?.focus();
  }, [focusRequest]);
  const shownPath = useRef(files.path);
  shownPath.current = files.path;
  useEffect(() => {
    if (!askOpenFolder) return;
    useUi.getState().requestOpenFolder(null);
    setPrompt({ kind: 'openFolder', initial: shownPath.current ?? '/' });
  }, [askOpenFolder]);
  // The protocol has no file-system watch: the open folder is listed again while it is shown, one
  // listing at a time, and a folder slow to list is listed less often (see folderPollDelay).
  const shownFolder = files.path;
  useEffect(() => {
    if (!shownFolder || !connected) return;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async (): Promise<void> => {
      const started = Date.now();
      if (!document.hidden) await recheckFolder(env.id).catch(() => undefined);
      timer = setTimeout(() => void tick(), folderPollDelay(Date.now() - started));
    };
    timer = setTimeout(() => void tick(), FOLDER_POLL_MS);
    return () => clearTimeout(timer);
  }, [env.id, shownFolder, connected]);

  const entries = sortEntries(files.entries, files.sort);
  const act = (fn: () => Promise<unknown>) => {
    setOpError(null);
    fn().catch((e: unknown) => setOpError(errorMessage(e)));
  };
  const openTerminal = (cwd: string) => act(() => openShell(env.id, { cwd }));
  const paths = (entries: FileEntry[]) => entries.map((e) => e.path);
  const operations: EntryOperations = {
    cut: (targets) => putOnClipboard(env.id, 'cut', paths(targets)),
    copy: (targets) => putOnClipboard(env.id, 'copy', paths(targets)),
    duplicate: (targets) => act(() => duplicateEntries(env.id, paths(targets))),
    ...(files.clipboard
      ? { paste: (folder: string | null) => act(() => pasteInto(env.id, folder ?? files.path ?? '/')) }
      : {}),
    move: (moving, folder) => act(() => moveInto(env.id, moving, folder)),
  };
  const commands: Omit<EntryCommands, 'remove' | 'cut' | 'copy' | 'duplicate' | 'pasteInto'> = {
    open: (entry) =>
      entry.kind === 'directory'
        ? void navigate(env.id, entry.path)
        : void selectEntry(env.id, entry.path, true),
    edit: (entry) => void openEditor(env.id, entry.path),
    download: (entry) =>
      act(() =>
        entry.kind === 'directory'
          ? downloadFolder(env.id, entry.path)
          : downloadFile(env.id, entry.path, entry.name),
      ),
    rename: (entry) => setPrompt({ kind: 'rename', entry }),
    copyPath: (entry) => act(() => navigator.clipboard.writeText(entry.path)),
    openTerminal: (entry) => openTerminal(entry.path),
    openAsWorkspace: (entry) => act(() => openWorkspaceFolder(env.id, entry.path)),
  };
  const activate = (entry: FileEntry) =>
    entry.kind === 'directory' ? void navigate(env.id, entry.path) : void openEditor(env.id, entry.path);
  const upload = (list: FileList | File[], folders: LocalFolder[] = []) => {
    if (!files.path) return;
    const dir = files.path;
    act(async () => {
      if (list.length > 0) await uploadFiles(env.id, dir, [...list]);
      for (const folder of folders) await uploadFolder(env.id, dir, folder);
    });
  };
  const uploadPicked = (picked: Promise<LocalFolder | null>) =>
    act(async () => {
      const folder = await picked;
      if (folder) upload([], [folder]);
    });
  const onDrop = (transfer: DataTransfer) => {
    // Read while the drop event runs: the browser empties the DataTransfer afterwards.
    const dropped = readDrop(transfer);
    act(async () => {
      const { files: plain, folders } = await dropped;
      upload(plain, folders);
    });
  };

  return (
    <div className="files">
      <FileToolbar
        envId={env.id}
        files={files}
        workspaceFolder={env.workspaceFolder ?? null}
        onOpenFolder={() => setPrompt({ kind: 'openFolder', initial: files.path ?? '/' })}
        onCloseFolder={() => act(() => closeWorkspaceFolder(env.id))}
        onNewFile={() => setPrompt({ kind: 'newFile' })}
        onNewFolder={() => setPrompt({ kind: 'mkdir' })}
        {...(operations.paste ? { onPaste: () => operations.paste?.(null) } : {})}
        onUpload={upload}
        onUploadPicked={uploadPicked}
        onOpenTerminal={openTerminal}
      />
      <FolderTree
        envId={env.id}
        shown={files.path !== null}
        root={env.workspaceFolder ?? null}
        onMove={operations.move}
      />
      <div className="files-main">
        <FileTable
          envId={env.id}
          files={files}
          entries={entries}
          connected={connected}
          opError={opError}
          listRef={listRef}
          commands={commands}
          activate={activate}
          onDelete={(targets) => setPrompt({ kind: 'delete', entries: targets })}
          onDrop={onDrop}
          operations={operations}
        />
        <Preview files={files} entries={entries} />
      </div>
      <TransferQueue envId={env.id} />
      <ConflictPrompt />
      <FilePrompts
        envId={env.id}
        prompt={prompt}
        onClose={() => setPrompt(null)}
        focusAfterDelete={() => listRef.current?.focus()}
      />
    </div>
  );
}

/** Beside the list: the preview of the file under the cursor (files open in editor panes). */
function Preview({ files, entries }: { files: EnvFiles; entries: FileEntry[] }) {
  const selected = entries.find((e) => e.path === files.selected) ?? null;
  if (selected && selected.kind !== 'directory' && files.preview)
    return <FilePreviewView name={selected.name} state={files.preview} />;
  return null;
}
