// The file browser of one environment: a lazy directory tree, a sortable list (name, size,
// modified), a path bar you can type into, hidden toggle, preview, file operations, uploads by
// button or drag-and-drop, downloads, and the transfer queue.
import { useEffect, useRef, useState, type DragEvent } from 'react';
import type { EnvironmentView, FileEntry } from '../../shared/ipc';
import {
  deleteEntry,
  goUp,
  makeFolder,
  navigate,
  openHome,
  refresh,
  renameEntry,
  selectEntry,
  sortBy,
  toggleHidden,
  toggleTreeNode,
} from '../actions/file-actions';
import { openShell } from '../actions/process-actions';
import { downloadFile, uploadFiles } from '../actions/transfer-actions';
import { errorMessage } from '../../shared/error-message';
import { formatBytes, formatDateTime } from '../format';
import { filesOf, sortEntries, useFiles, type SortKey } from '../stores/files-store';
import { useUi } from '../stores/ui-store';
import { ConfirmDialog } from './confirm-dialog';
import { ConflictPrompt } from './conflict-dialog';
import { FilePreviewView } from './file-preview';
import { Modal } from './modal';
import { TransferQueue } from './transfer-queue';
import { ErrorLine } from './error-line';

type Prompt = { kind: 'mkdir' } | { kind: 'rename'; entry: FileEntry } | { kind: 'delete'; entry: FileEntry };

export function FileBrowser({ env }: { env: EnvironmentView }) {
  const files = useFiles((s) => filesOf(s.byEnv, env.id));
  const focusRequest = useUi((s) => s.fileFocusRequest);
  const [pathText, setPathText] = useState(files.path ?? '');
  const [prompt, setPrompt] = useState<Prompt | null>(null);
  const [dragging, setDragging] = useState(false);
  const [opError, setOpError] = useState<string | null>(null);
  const uploadInput = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const connected = env.link.kind === 'connected';

  useEffect(() => {
    if (files.path === null && connected) void openHome(env.id);
  }, [env.id, files.path, connected]);
  useEffect(() => setPathText(files.path ?? ''), [files.path]);
  useEffect(() => {
    if (focusRequest > 0) listRef.current?.focus();
  }, [focusRequest]);

  const entries = sortEntries(files.entries, files.sort);
  const selected = entries.find((e) => e.path === files.selected) ?? null;
  const act = (fn: () => Promise<unknown>) => {
    setOpError(null);
    fn().catch((e: unknown) => setOpError(errorMessage(e)));
  };
  const upload = (list: FileList | File[]) => {
    if (!files.path) return;
    const dir = files.path;
    act(() => uploadFiles(env.id, dir, [...list]));
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length > 0) upload(e.dataTransfer.files);
  };
  const sortHeader = (key: SortKey, label: string) => (
    <th aria-sort={files.sort.key === key ? (files.sort.ascending ? 'ascending' : 'descending') : 'none'}>
      <button onClick={() => sortBy(env.id, key)}>
        {label}
        {files.sort.key === key ? (files.sort.ascending ? ' ▲' : ' ▼') : ''}
      </button>
    </th>
  );

  return (
    <div className="files">
      <div className="files-toolbar">
        <button onClick={() => void goUp(env.id)} aria-label="Up one folder">
          ↑
        </button>
        <form
          style={{ display: 'contents' }}
          onSubmit={(e) => {
            e.preventDefault();
            if (pathText.trim()) void navigate(env.id, pathText.trim());
          }}
        >
          <input
            type="text"
            aria-label="Path"
            value={pathText}
            onChange={(e) => setPathText(e.target.value)}
          />
        </form>
        <button onClick={() => void refresh(env.id)}>Refresh</button>
        <label>
          <input type="checkbox" checked={files.showHidden} onChange={() => void toggleHidden(env.id)} />{' '}
          Hidden
        </label>
        <button onClick={() => setPrompt({ kind: 'mkdir' })} disabled={!files.path}>
          New folder
        </button>
        <button onClick={() => uploadInput.current?.click()} disabled={!files.path}>
          Upload
        </button>
        <input
          ref={uploadInput}
          type="file"
          multiple
          hidden
          aria-label="Choose files to upload"
          onChange={(e) => {
            if (e.target.files) upload(e.target.files);
            e.target.value = '';
          }}
        />
        <button
          onClick={() => files.path && act(() => openShell(env.id, { cwd: files.path as string }))}
          disabled={!files.path}
        >
          Open terminal here
        </button>
      </div>
      <nav className="tree" aria-label="Folder tree">
        {files.path && <TreeNode envId={env.id} path="/" name="/" />}
      </nav>
      <div className="files-main">
        <div
          ref={listRef}
          tabIndex={-1}
          className={`file-list${dragging ? ' dragging' : ''}`}
          aria-label="Files"
          role="region"
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <ErrorLine message={files.error} />
          <ErrorLine message={opError} />
          {!connected && files.path === null && (
            <p className="muted">Connect the environment to browse files.</p>
          )}
          <table aria-label="Folder contents" aria-busy={files.loading}>
            <thead>
              <tr>
                {sortHeader('name', 'Name')}
                {sortHeader('size', 'Size')}
                {sortHeader('modified', 'Modified')}
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr
                  key={entry.path}
                  aria-selected={entry.path === files.selected}
                  onClick={() => void selectEntry(env.id, entry.path, entry.kind !== 'directory')}
                  onDoubleClick={() => entry.kind === 'directory' && void navigate(env.id, entry.path)}
                >
                  <td>
                    <button
                      className="link"
                      onClick={(e) => {
                        e.stopPropagation();
                        if (entry.kind === 'directory') void navigate(env.id, entry.path);
                        else void selectEntry(env.id, entry.path, true);
                      }}
                    >
                      <span aria-hidden="true">
                        {entry.kind === 'directory' ? '📁 ' : entry.kind === 'symlink' ? '🔗 ' : '📄 '}
                      </span>
                      {entry.name}
                    </button>
                  </td>
                  <td>{entry.kind === 'directory' ? '' : formatBytes(entry.size)}</td>
                  <td>{formatDateTime(entry.modifiedAtMs)}</td>
                  <td className="actions">
                    {entry.kind !== 'directory' && (
                      <button
                        aria-label={`Download ${entry.name}`}
                        onClick={(e) => {
                          e.stopPropagation();
                          act(() => downloadFile(env.id, entry.path, entry.name));
                        }}
                      >
                        Download
                      </button>
                    )}
                    <button
                      aria-label={`Rename ${entry.name}`}
                      onClick={(e) => {
                        e.stopPropagation();
                        setPrompt({ kind: 'rename', entry });
                      }}
                    >
                      Rename
                    </button>
                    <button
                      className="danger"
                      aria-label={`Delete ${entry.name}`}
                      onClick={(e) => {
                        e.stopPropagation();
                        setPrompt({ kind: 'delete', entry });
                      }}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {files.path && entries.length === 0 && !files.loading && (
            <p className="muted">Empty folder. Drop files here to upload.</p>
          )}
        </div>
        {selected && selected.kind !== 'directory' && files.preview && (
          <FilePreviewView name={selected.name} state={files.preview} />
        )}
      </div>
      <TransferQueue envId={env.id} />
      <ConflictPrompt />
      {prompt?.kind === 'mkdir' && (
        <NamePrompt
          title="New folder"
          initial=""
          onClose={() => setPrompt(null)}
          onSubmit={(name) => makeFolder(env.id, name)}
        />
      )}
      {prompt?.kind === 'rename' && (
        <NamePrompt
          title={`Rename ${prompt.entry.name}`}
          initial={prompt.entry.name}
          onClose={() => setPrompt(null)}
          onSubmit={(name) => renameEntry(env.id, prompt.entry.path, name)}
        />
      )}
      {prompt?.kind === 'delete' && (
        <ConfirmDialog
          title={`Delete ${prompt.entry.name}?`}
          confirmLabel="Delete"
          onClose={() => setPrompt(null)}
          onConfirm={() => deleteEntry(env.id, prompt.entry.path)}
        >
          <p>
            <span className="mono">{prompt.entry.path}</span> will be deleted
            {prompt.entry.kind === 'directory' ? ' with everything in it' : ''}. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}

function TreeNode({ envId, path, name }: { envId: string; path: string; name: string }) {
  const expanded = useFiles((s) => !!filesOf(s.byEnv, envId).expanded[path]);
  const children = useFiles((s) => filesOf(s.byEnv, envId).tree[path]);
  const current = useFiles((s) => filesOf(s.byEnv, envId).path === path);
  return (
    <li style={{ listStyle: 'none' }}>
      <button
        aria-expanded={expanded}
        aria-label={`Expand ${name}`}
        onClick={() => void toggleTreeNode(envId, path)}
      >
        {expanded ? '▾' : '▸'}
      </button>
      <button
        aria-current={current}
        onClick={() => void navigate(envId, path)}
        style={{ fontWeight: current ? 600 : 400 }}
      >
        {name}
      </button>
      {expanded && children && (
        <ul>
          {children.map((c) => (
            <TreeNode key={c.path} envId={envId} path={c.path} name={c.name} />
          ))}
        </ul>
      )}
    </li>
  );
}

function NamePrompt(props: {
  title: string;
  initial: string;
  onClose: () => void;
  onSubmit: (name: string) => Promise<void>;
}) {
  const [name, setName] = useState(props.initial);
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal title={props.title} onClose={props.onClose}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const trimmed = name.trim();
          if (!trimmed || trimmed.includes('/')) {
            setError('Enter a name without "/".');
            return;
          }
          try {
            await props.onSubmit(trimmed);
            props.onClose();
          } catch (err) {
            setError(errorMessage(err));
          }
        }}
      >
        <label>
          Name <input aria-label="Name" value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <ErrorLine message={error} />
        <div className="modal-actions">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="primary">
            OK
          </button>
        </div>
      </form>
    </Modal>
  );
}
