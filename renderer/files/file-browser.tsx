// The file browser of one environment: a lazy directory tree, a sortable list (name, size,
// modified), a path bar you can type into, hidden toggle, preview, file operations, uploads of files
// and folders by button or drag-and-drop, downloads of both, and the transfer queue.
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type DragEvent,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import {
  ArrowUp,
  ChevronDown,
  ChevronRight,
  ChevronUp,
  Copy,
  Download,
  FilePen,
  FolderOpen,
  FolderPlus,
  Pencil,
  RotateCw,
  SquareTerminal,
  Trash2,
  FolderUp,
  Upload,
} from 'lucide-react';
import type { EnvironmentView, FileEntry } from '../../shared/ipc';
import {
  deleteEntries,
  goUp,
  loadTreeNode,
  makeFolder,
  markEntries,
  navigate,
  openHome,
  refresh,
  renameEntry,
  previewFile,
  selectEntry,
  sortBy,
  toggleHidden,
  toggleTreeNode,
} from './file-actions';
import { openEditor } from '../editor/editor-actions';
import { openShell } from '../processes/process-actions';
import { foldersOfPicked, readDrop, type LocalFolder } from './local-folders';
import { downloadFile, downloadFolder, uploadFiles, uploadFolder } from './transfer-actions';
import { errorMessage } from '../../shared/error-message';
import { formatBytes, formatDateTime } from '../ui/format';
import { filesOf, sortEntries, useFiles, type SortKey } from './files-store';
import { hasEditors, useEditors } from '../editor/editors-store';
import { useUi } from '../app/ui-store';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { ConflictPrompt } from './conflict-dialog';
import { EditorArea } from '../editor/editor-area';
import { FilePreviewView } from './file-preview';
import { Modal } from '../ui/modal';
import { TransferQueue } from './transfer-queue';
import { ErrorLine } from '../ui/error-line';
import { FileIcon } from './file-icon';
import { contextMenuPoint, PopupMenu, type MenuEntry } from '../ui/popup-menu';
import { RowActions } from '../ui/row-actions';
import { nextTypeAhead, TYPE_AHEAD_RESET_MS } from './type-ahead';

type Prompt =
  { kind: 'mkdir' } | { kind: 'rename'; entry: FileEntry } | { kind: 'delete'; entries: FileEntry[] };

const FIRST_LOAD_RETRIES = 5;
const FIRST_LOAD_RETRY_MS = 2_000;

export function FileBrowser({ env }: { env: EnvironmentView }) {
  const files = useFiles((s) => filesOf(s.byEnv, env.id));
  const focusRequest = useUi((s) => s.fileFocusRequest);
  const editing = useEditors((s) => hasEditors(s, env.id));
  const [pathText, setPathText] = useState(files.path ?? '');
  const [prompt, setPrompt] = useState<Prompt | null>(null);
  const [dragging, setDragging] = useState(false);
  const [opError, setOpError] = useState<string | null>(null);
  const uploadInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  /** Where a Shift selection starts (the last entry clicked or moved to without Shift). */
  const anchor = useRef<string | null>(null);
  const typeAhead = useRef({ text: '', at: 0 });
  const [contextMenu, setContextMenu] = useState<{ at: { x: number; y: number }; entry: FileEntry } | null>(
    null,
  );
  const connected = env.link.kind === 'connected';
  const closeContextMenu = useCallback(() => {
    setContextMenu(null);
    listRef.current?.focus();
  }, []);

  // The first load can fail right at connect; it is tried again a few times, or the list stays empty.
  const [homeAttempt, setHomeAttempt] = useState(0);
  useEffect(() => {
    if (files.path !== null || !connected) return;
    let cancelled = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    void openHome(env.id).then(() => {
      if (cancelled || homeAttempt >= FIRST_LOAD_RETRIES) return;
      if (filesOf(useFiles.getState().byEnv, env.id).path !== null) return;
      retry = setTimeout(() => setHomeAttempt((n) => n + 1), FIRST_LOAD_RETRY_MS);
    });
    return () => {
      cancelled = true;
      clearTimeout(retry);
    };
  }, [env.id, files.path, connected, homeAttempt]);
  useEffect(() => setPathText(files.path ?? ''), [files.path]);
  useEffect(() => {
    if (focusRequest > 0) listRef.current?.focus();
  }, [focusRequest]);

  const entries = sortEntries(files.entries, files.sort);
  const selected = entries.find((e) => e.path === files.selected) ?? null;
  // The file under the cursor was not previewed while the editor covered it: once the last editor
  // tab closes, its preview is read.
  const unpreviewed =
    !editing && selected && selected.kind !== 'directory' && !files.preview ? selected.path : null;
  useEffect(() => {
    if (unpreviewed) void previewFile(env.id, unpreviewed);
  }, [env.id, unpreviewed]);
  const marked = new Set(files.marked);
  const act = (fn: () => Promise<unknown>) => {
    setOpError(null);
    fn().catch((e: unknown) => setOpError(errorMessage(e)));
  };
  const open = (entry: FileEntry) => {
    if (entry.kind === 'directory') void navigate(env.id, entry.path);
    else void selectEntry(env.id, entry.path, true);
  };
  /** Enter and double-click: a folder opens, a file opens in the editor. */
  const activate = (entry: FileEntry) => {
    if (entry.kind === 'directory') void navigate(env.id, entry.path);
    else void openEditor(env.id, entry.path);
  };
  /** The entries an action applies to: the marked ones when `entry` is among them, else `entry`. */
  const targetsOf = (entry: FileEntry) =>
    marked.has(entry.path) && marked.size > 1 ? entries.filter((e) => marked.has(e.path)) : [entry];
  const download = (entry: FileEntry) =>
    act(() =>
      entry.kind === 'directory'
        ? downloadFolder(env.id, entry.path)
        : downloadFile(env.id, entry.path, entry.name),
    );
  const copyPath = (entry: FileEntry) =>
    act(async () => {
      await navigator.clipboard.writeText(entry.path);
    });
  const menuFor = (entry: FileEntry): MenuEntry[] => [
    { label: entry.kind === 'directory' ? 'Open' : 'Preview', icon: FolderOpen, onSelect: () => open(entry) },
    ...(entry.kind !== 'directory'
      ? [
          {
            label: 'Edit',
            icon: FilePen,
            keys: 'Enter',
            onSelect: () => void openEditor(env.id, entry.path),
          },
        ]
      : []),
    { label: 'Download', icon: Download, onSelect: () => download(entry) },
    { label: 'Rename', icon: Pencil, keys: 'F2', onSelect: () => setPrompt({ kind: 'rename', entry }) },
    { label: 'Copy path', icon: Copy, onSelect: () => copyPath(entry) },
    ...(entry.kind === 'directory'
      ? [
          {
            label: 'Open terminal here',
            icon: SquareTerminal,
            onSelect: () => act(() => openShell(env.id, { cwd: entry.path })),
          },
        ]
      : []),
    'separator',
    {
      label: 'Delete',
      icon: Trash2,
      keys: 'Delete',
      danger: true,
      onSelect: () => setPrompt({ kind: 'delete', entries: targetsOf(entry) }),
    },
  ];

  /** Click, Ctrl+click (toggle) and Shift+click (range from the anchor). */
  const onRowClick = (e: MouseEvent, entry: FileEntry) => {
    if (e.shiftKey && anchor.current) {
      void selectEntry(
        env.id,
        entry.path,
        entry.kind !== 'directory',
        rangeOf(entries, anchor.current, entry.path),
      );
      return;
    }
    anchor.current = entry.path;
    if (e.ctrlKey || e.metaKey) {
      markEntries(
        env.id,
        marked.has(entry.path) ? files.marked.filter((p) => p !== entry.path) : [...files.marked, entry.path],
      );
      return;
    }
    void selectEntry(env.id, entry.path, entry.kind !== 'directory');
  };

  const moveCursor = (index: number, extend: boolean) => {
    const entry = entries[Math.max(0, Math.min(entries.length - 1, index))];
    if (!entry) return;
    if (!extend || !anchor.current) anchor.current = entry.path;
    const range = extend ? rangeOf(entries, anchor.current, entry.path) : [entry.path];
    void selectEntry(env.id, entry.path, entry.kind !== 'directory', range);
    const rows = listRef.current?.querySelectorAll<HTMLElement>('tr[data-path]') ?? [];
    [...rows].find((row) => row.dataset.path === entry.path)?.scrollIntoView?.({ block: 'nearest' });
  };

  /** The file list's keys: arrows, Home/End, Enter, Backspace, F2, Delete, Ctrl+A and type-ahead. */
  const onListKey = (e: KeyboardEvent) => {
    if (e.target !== e.currentTarget) return;
    const index = entries.findIndex((en) => en.path === files.selected);
    const current = entries[index] ?? null;
    const handled = () => {
      e.preventDefault();
      e.stopPropagation();
    };
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      handled();
      moveCursor(index < 0 ? 0 : index + (e.key === 'ArrowDown' ? 1 : -1), e.shiftKey);
    } else if (e.key === 'Home' || e.key === 'End') {
      handled();
      moveCursor(e.key === 'Home' ? 0 : entries.length - 1, e.shiftKey);
    } else if (e.key === 'Enter' && current) {
      handled();
      activate(current);
    } else if (e.key === 'Backspace' || (e.altKey && e.key === 'ArrowUp')) {
      handled();
      void goUp(env.id);
    } else if (e.key === 'F2' && current) {
      handled();
      setPrompt({ kind: 'rename', entry: current });
    } else if (e.key === 'Delete' && current) {
      handled();
      setPrompt({ kind: 'delete', entries: targetsOf(current) });
    } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'a') {
      handled();
      markEntries(
        env.id,
        entries.map((en) => en.path),
      );
    } else if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey && e.key !== ' ') {
      handled();
      const now = Date.now();
      const text = now - typeAhead.current.at > TYPE_AHEAD_RESET_MS ? e.key : typeAhead.current.text + e.key;
      typeAhead.current = { text, at: now };
      const next = nextTypeAhead(
        entries.map((en) => en.name),
        index,
        text,
      );
      if (next !== null) moveCursor(next, false);
    }
  };
  const upload = (list: FileList | File[], folders: LocalFolder[] = []) => {
    if (!files.path) return;
    const dir = files.path;
    act(async () => {
      if (list.length > 0) await uploadFiles(env.id, dir, [...list]);
      for (const folder of folders) await uploadFolder(env.id, dir, folder);
    });
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const dropped = readDrop(e.dataTransfer);
    act(async () => {
      const { files: plain, folders } = await dropped;
      upload(plain, folders);
    });
  };
  // The whole header cell sorts (its button fills it, and a click beside the text reaches the cell).
  const sortHeader = (key: SortKey, label: string, className: string) => (
    <th
      className={`sortable ${className}`}
      aria-sort={files.sort.key === key ? (files.sort.ascending ? 'ascending' : 'descending') : 'none'}
      onClick={() => sortBy(env.id, key)}
    >
      <button>
        {label}
        {files.sort.key === key &&
          (files.sort.ascending ? (
            <ChevronUp size={12} aria-hidden="true" />
          ) : (
            <ChevronDown size={12} aria-hidden="true" />
          ))}
      </button>
    </th>
  );

  return (
    <div className="files">
      <div className="files-toolbar">
        <button
          className="icon"
          onClick={() => void goUp(env.id)}
          aria-label="Up one folder"
          title="Up one folder (Backspace)"
        >
          <ArrowUp size={15} aria-hidden="true" />
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
        <button className="icon" onClick={() => void refresh(env.id)} aria-label="Refresh" title="Refresh">
          <RotateCw size={15} aria-hidden="true" />
        </button>
        <label className="toggle">
          <input type="checkbox" checked={files.showHidden} onChange={() => void toggleHidden(env.id)} />{' '}
          Hidden
        </label>
        <button onClick={() => setPrompt({ kind: 'mkdir' })} disabled={!files.path}>
          <FolderPlus size={15} aria-hidden="true" />
          <span className="label">New folder</span>
        </button>
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
            if (e.target.files) upload(e.target.files);
            e.target.value = '';
          }}
        />
        <button onClick={() => folderInput.current?.click()} disabled={!files.path}>
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
            if (e.target.files) upload([], foldersOfPicked(e.target.files));
            e.target.value = '';
          }}
        />
        <button
          onClick={() => files.path && act(() => openShell(env.id, { cwd: files.path as string }))}
          disabled={!files.path}
        >
          <SquareTerminal size={15} aria-hidden="true" />
          <span className="label">Open terminal here</span>
        </button>
      </div>
      <nav className="tree" aria-label="Folder tree">
        {files.path && (
          <ul>
            <TreeNode envId={env.id} path="/" name="/" />
          </ul>
        )}
      </nav>
      <div className="files-main">
        <div
          ref={listRef}
          tabIndex={0}
          className={`file-list${dragging ? ' dragging' : ''}`}
          aria-label="Files"
          role="region"
          aria-keyshortcuts="ArrowUp ArrowDown Enter F2 Delete Backspace Control+A"
          onKeyDown={onListKey}
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
          <table aria-label="Folder contents" aria-busy={files.loading} className="file-table">
            <thead>
              <tr>
                {sortHeader('name', 'Name', 'col-name')}
                {sortHeader('size', 'Size', 'col-size')}
                {sortHeader('modified', 'Modified', 'col-modified')}
                <th className="col-actions">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr
                  key={entry.path}
                  data-path={entry.path}
                  aria-selected={marked.has(entry.path)}
                  className={entry.path === files.selected ? 'cursor' : undefined}
                  onClick={(e) => onRowClick(e, entry)}
                  onDoubleClick={() => activate(entry)}
                  onContextMenu={(e) => {
                    e.preventDefault();
                    if (!marked.has(entry.path))
                      void selectEntry(env.id, entry.path, entry.kind !== 'directory');
                    setContextMenu({ at: contextMenuPoint(e), entry });
                  }}
                >
                  <td className="col-name" title={entry.name}>
                    <button
                      className="link entry-name"
                      tabIndex={-1}
                      onClick={(e) => {
                        if (e.ctrlKey || e.metaKey || e.shiftKey) return;
                        e.stopPropagation();
                        anchor.current = entry.path;
                        open(entry);
                      }}
                    >
                      <FileIcon entry={entry} />
                      <span className="entry-text">{entry.name}</span>
                    </button>
                  </td>
                  <td className="col-size">{entry.kind === 'directory' ? '' : formatBytes(entry.size)}</td>
                  <td className="col-modified">{formatDateTime(entry.modifiedAtMs)}</td>
                  <td className="col-actions">
                    <RowActions
                      name={entry.name}
                      inline={[{ label: 'Download', icon: Download, onSelect: () => download(entry) }]}
                      menu={menuFor(entry)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {files.path && entries.length === 0 && !files.loading && (
            <p className="muted">Empty folder. Drop files here to upload.</p>
          )}
        </div>
        {editing && <EditorArea envId={env.id} />}
        {!editing && selected && selected.kind !== 'directory' && files.preview && (
          <FilePreviewView name={selected.name} state={files.preview} />
        )}
      </div>
      <TransferQueue envId={env.id} />
      <ConflictPrompt />
      {contextMenu && (
        <PopupMenu
          label={`Actions for ${contextMenu.entry.name}`}
          items={menuFor(contextMenu.entry)}
          at={contextMenu.at}
          onClose={closeContextMenu}
        />
      )}
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
          title={
            prompt.entries.length === 1
              ? `Delete ${prompt.entries[0]!.name}?`
              : `Delete ${prompt.entries.length} items?`
          }
          confirmLabel="Delete"
          onClose={() => {
            setPrompt(null);
            listRef.current?.focus();
          }}
          onConfirm={() =>
            deleteEntries(
              env.id,
              prompt.entries.map((e) => e.path),
            )
          }
        >
          {prompt.entries.length === 1 ? (
            <p>
              <span className="mono">{prompt.entries[0]!.path}</span> will be deleted
              {prompt.entries[0]!.kind === 'directory' ? ' with everything in it' : ''}. This cannot be
              undone.
            </p>
          ) : (
            <>
              <p>These will be deleted, folders with everything in them. This cannot be undone.</p>
              <ul className="delete-list mono">
                {prompt.entries.map((e) => (
                  <li key={e.path}>{e.path}</li>
                ))}
              </ul>
            </>
          )}
        </ConfirmDialog>
      )}
    </div>
  );
}

/** The paths from `from` to `to` in list order, both included. */
function rangeOf(entries: FileEntry[], from: string, to: string): string[] {
  const a = entries.findIndex((e) => e.path === from);
  const b = entries.findIndex((e) => e.path === to);
  if (a < 0 || b < 0) return [to];
  return entries.slice(Math.min(a, b), Math.max(a, b) + 1).map((e) => e.path);
}

function TreeNode({ envId, path, name }: { envId: string; path: string; name: string }) {
  const expanded = useFiles((s) => !!filesOf(s.byEnv, envId).expanded[path]);
  const children = useFiles((s) => filesOf(s.byEnv, envId).tree[path]);
  const current = useFiles((s) => filesOf(s.byEnv, envId).path === path);
  const rowRef = useRef<HTMLDivElement>(null);
  // A node left open when the tree was refreshed (after New folder, Rename, Delete) reloads itself.
  useEffect(() => {
    if (expanded && !children) void loadTreeNode(envId, path);
  }, [envId, path, expanded, children]);
  useEffect(() => {
    if (current) rowRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [current]);
  return (
    <li>
      <div ref={rowRef} className={`tree-row${current ? ' current' : ''}`}>
        <button
          className="tree-toggle"
          aria-expanded={expanded}
          aria-label={`${expanded ? 'Collapse' : 'Expand'} ${name}`}
          onClick={() => void toggleTreeNode(envId, path)}
        >
          {expanded ? (
            <ChevronDown size={13} aria-hidden="true" />
          ) : (
            <ChevronRight size={13} aria-hidden="true" />
          )}
        </button>
        <button
          className="tree-name"
          aria-current={current}
          title={path}
          onClick={() => void navigate(envId, path)}
        >
          <FileIcon entry={{ kind: 'directory', name }} />
          <span className="entry-text">{name}</span>
        </button>
      </div>
      {expanded && children && children.length > 0 && (
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
