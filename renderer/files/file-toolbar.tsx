// The file browser's toolbar: the workspace folder (Open folder…, Close folder), up one folder, a
// path bar you can type into, refresh, the hidden toggle, New file, New folder, Paste, uploads of
// files and of a folder (through the system's pickers; the browser's folder picker where it has one,
// since it shows empty folders), and a terminal opened in the current folder.
import { useEffect, useRef, useState } from 'react';
import {
  ArrowUp,
  ClipboardPaste,
  FilePlus,
  FolderOpen,
  FolderPlus,
  FolderUp,
  FolderX,
  RotateCw,
  SquareTerminal,
  Upload,
} from 'lucide-react';
import { goUp, navigate, refresh, toggleHidden } from './file-actions';
import type { EnvFiles } from './files-store';
import { folderPicker, foldersOfPicked, type LocalFolder } from '../transfers/local-folders';

export function FileToolbar({
  envId,
  files,
  workspaceFolder,
  onOpenFolder,
  onCloseFolder,
  onNewFile,
  onNewFolder,
  onPaste,
  onUpload,
  onUploadPicked,
  onOpenTerminal,
}: {
  envId: string;
  files: EnvFiles;
  workspaceFolder: string | null;
  onOpenFolder: () => void;
  onCloseFolder: () => void;
  onNewFile: () => void;
  onNewFolder: () => void;
  /** Absent while Cut or Copy took nothing. */
  onPaste?: () => void;
  onUpload: (list: FileList | File[], folders?: LocalFolder[]) => void;
  /** A folder the browser's folder picker is reading (null once read when the user closed it). */
  onUploadPicked: (folder: Promise<LocalFolder | null>) => void;
  onOpenTerminal: (cwd: string) => void;
}) {
  const [pathText, setPathText] = useState(files.path ?? '');
  const uploadInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  useEffect(() => setPathText(files.path ?? ''), [files.path]);
  // The picker sees empty folders; <input webkitdirectory> (where there is no picker) does not.
  const chooseFolder = () => {
    const pick = folderPicker();
    if (pick) onUploadPicked(pick());
    else folderInput.current?.click();
  };
  return (
    <div className="files-toolbar">
      <button onClick={onOpenFolder} title="Root the workspace in a folder">
        <FolderOpen size={15} aria-hidden="true" />
        <span className="label">Open folder…</span>
      </button>
      {workspaceFolder && (
        <button onClick={onCloseFolder} title={`Close ${workspaceFolder}: back to the home folder`}>
          <FolderX size={15} aria-hidden="true" />
          <span className="label">Close folder</span>
        </button>
      )}
      <button
        className="icon"
        onClick={() => void goUp(envId)}
        aria-label="Up one folder"
        title="Up one folder (Backspace)"
      >
        <ArrowUp size={15} aria-hidden="true" />
      </button>
      <form
        style={{ display: 'contents' }}
        onSubmit={(e) => {
          e.preventDefault();
          if (pathText.trim()) void navigate(envId, pathText.trim());
        }}
      >
        <input type="text" aria-label="Path" value={pathText} onChange={(e) => setPathText(e.target.value)} />
      </form>
      <button className="icon" onClick={() => void refresh(envId)} aria-label="Refresh" title="Refresh">
        <RotateCw size={15} aria-hidden="true" />
      </button>
      <label className="toggle">
        <input type="checkbox" checked={files.showHidden} onChange={() => void toggleHidden(envId)} /> Hidden
      </label>
      <button onClick={onNewFile} disabled={!files.path}>
        <FilePlus size={15} aria-hidden="true" />
        <span className="label">New file</span>
      </button>
      <button onClick={onNewFolder} disabled={!files.path}>
        <FolderPlus size={15} aria-hidden="true" />
        <span className="label">New folder</span>
      </button>
      {onPaste && (
        <button onClick={onPaste} disabled={!files.path} title="Paste here (Ctrl+V)">
          <ClipboardPaste size={15} aria-hidden="true" />
          <span className="label">Paste</span>
        </button>
      )}
      <button onClick={() => uploadInput.current?.click()} disabled={!files.path}>
        <Upload size={15} aria-hidden="true" />
        <span className="label">Upload</span>
      </button>
      <input
        ref={uploadInput}
        type="file"
        multiple
        hidden
        aria-label="Choose files to upload"
        onChange={(e) => {
          if (e.target.files) onUpload(e.target.files);
          e.target.value = '';
        }}
      />
      <button onClick={chooseFolder} disabled={!files.path}>
        <FolderUp size={15} aria-hidden="true" />
        <span className="label">Upload folder…</span>
      </button>
      <input
        // webkitdirectory is not in React's input props; in Electron it opens the system's folder picker.
        ref={(input) => {
          folderInput.current = input;
          input?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        hidden
        aria-label="Choose a folder to upload"
        onChange={(e) => {
          if (e.target.files) onUpload([], foldersOfPicked(e.target.files));
          e.target.value = '';
        }}
      />
      <button onClick={() => files.path && onOpenTerminal(files.path)} disabled={!files.path}>
        <SquareTerminal size={15} aria-hidden="true" />
        <span className="label">Open terminal here</span>
      </button>
    </div>
  );
}
