// The file browser of one environment: a toolbar with a path bar, a lazy folder tree, a sortable
// list driven by mouse and keyboard, preview or the editor beside it, file operations, uploads of
// files and folders by button or drag-and-drop, downloads of both, and the transfer queue.
import { useEffect, useRef, useState } from 'react';
import type { EnvironmentView, FileEntry } from '../../shared/ipc';
import { HOME_RETRIES, navigate, openHome, selectEntry } from './file-actions';
import { openEditor } from '../editor/editor-actions';
import { openShell } from '../processes/process-actions';
import { readDrop, type LocalFolder } from './local-folders';
import { downloadFile, downloadFolder, uploadFiles, uploadFolder } from './transfer-actions';
import { errorMessage } from '../../shared/error-message';
import { filesOf, sortEntries, useFiles, type EnvFiles } from './files-store';
import { useUi } from '../app/ui-store';
import { ConflictPrompt } from './conflict-dialog';
import { FilePreviewView } from './file-preview';
import { TransferQueue } from './transfer-queue';
import { FileToolbar } from './file-toolbar';
import { FolderTree } from './folder-tree';
import { FileTable } from './file-table';
import { FilePrompts, type FilePrompt } from './file-prompts';
import type { EntryCommands } from './entry-menu';

export function FileBrowser({ env }: { env: EnvironmentView }) {
  const files = useFiles((s) => filesOf(s.byEnv, env.id));
  const focusRequest = useUi((s) => s.fileFocusRequest);
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

  const entries = sortEntries(files.entries, files.sort);
  const act = (fn: () => Promise<unknown>) => {
    setOpError(null);
    fn().catch((e: unknown) => setOpError(errorMessage(e)));
  };
  const openTerminal = (cwd: string) => act(() => openShell(env.id, { cwd }));
  const commands: Omit<EntryCommands, 'remove'> = {
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
        onNewFolder={() => setPrompt({ kind: 'mkdir' })}
        onUpload={upload}
        onOpenTerminal={openTerminal}
      />
      <FolderTree envId={env.id} shown={files.path !== null} />
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
