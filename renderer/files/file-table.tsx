// The file list: a sortable table of the current folder (name, size, modified, row actions) that
// takes the keyboard (see use-file-selection.ts), a context menu per entry, and drops of files and
// folders to upload into the folder shown.
import { useCallback, useState, type RefObject } from 'react';
import { Download } from 'lucide-react';
import type { FileEntry } from '../../shared/ipc';
import { goUp, markEntries, selectEntry, sortBy } from './file-actions';
import type { EnvFiles, SortKey } from './files-store';
import { menuFor, type EntryCommands } from './entry-menu';
import { useFileSelection } from './use-file-selection';
import { formatBytes, formatDateTime } from '../ui/format';
import { DataTable, type DataColumn } from '../ui/data-table';
import { ErrorLine } from '../ui/error-line';
import { contextMenuPoint, PopupMenu } from '../ui/popup-menu';
import { RowActions } from '../ui/row-actions';
import { FileIcon } from './file-icon';

const FILE_COLUMNS: DataColumn<SortKey>[] = [
  { key: 'name', label: 'Name', className: 'col-name', sortable: true },
  { key: 'size', label: 'Size', className: 'col-size', sortable: true },
  { key: 'modified', label: 'Modified', className: 'col-modified', sortable: true },
];

export function FileTable({
  envId,
  files,
  entries,
  connected,
  opError,
  listRef,
  commands,
  activate,
  onDelete,
  onDrop,
}: {
  envId: string;
  files: EnvFiles;
  /** The folder's entries in list order. */
  entries: FileEntry[];
  connected: boolean;
  opError: string | null;
  listRef: RefObject<HTMLDivElement | null>;
  /** The entry menu's commands, but Delete, which applies to the marked entries. */
  commands: Omit<EntryCommands, 'remove'>;
  /** Enter and double-click: a folder opens, a file opens in the editor. */
  activate: (entry: FileEntry) => void;
  /** Asks before deleting `entries`. */
  onDelete: (entries: FileEntry[]) => void;
  onDrop: (transfer: DataTransfer) => void;
}) {
  const [dragging, setDragging] = useState(false);
  const [contextMenu, setContextMenu] = useState<{ at: { x: number; y: number }; entry: FileEntry } | null>(
    null,
  );
  const closeContextMenu = useCallback(() => {
    setContextMenu(null);
    listRef.current?.focus();
  }, [listRef]);
  const select = (entry: FileEntry, range: string[] = [entry.path]) =>
    void selectEntry(envId, entry.path, entry.kind !== 'directory', range);
  const selection = useFileSelection({
    entries,
    cursor: files.selected,
    marked: files.marked,
    select,
    mark: (paths) => markEntries(envId, paths),
    activate,
    goUp: () => void goUp(envId),
    rename: commands.rename,
    remove: onDelete,
    reveal: (path) => {
      const rows = listRef.current?.querySelectorAll<HTMLElement>('tr[data-path]') ?? [];
      [...rows].find((row) => row.dataset.path === path)?.scrollIntoView?.({ block: 'nearest' });
    },
  });
  const entryCommands: EntryCommands = {
    ...commands,
    remove: (entry) => onDelete(selection.targetsOf(entry)),
  };
  const marked = new Set(files.marked);

  return (
    <>
      <div
        ref={listRef}
        tabIndex={0}
        className={`file-list${dragging ? ' dragging' : ''}`}
        aria-label="Files"
        role="region"
        aria-keyshortcuts="ArrowUp ArrowDown Enter F2 Delete Backspace Control+A"
        onKeyDown={selection.onListKey}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          onDrop(e.dataTransfer);
        }}
      >
        <ErrorLine message={files.error} />
        <ErrorLine message={opError} />
        {!connected && files.path === null && (
          <p className="muted">Connect the environment to browse files.</p>
        )}
        <DataTable
          label="Folder contents"
          className="file-table"
          busy={files.loading}
          columns={FILE_COLUMNS}
          sort={files.sort}
          onSort={(key) => sortBy(envId, key)}
        >
          {entries.map((entry) => (
            <tr
              key={entry.path}
              data-path={entry.path}
              aria-selected={marked.has(entry.path)}
              className={entry.path === files.selected ? 'cursor' : undefined}
              onClick={(e) => selection.onRowClick(e, entry)}
              onDoubleClick={() => activate(entry)}
              onContextMenu={(e) => {
                e.preventDefault();
                if (!marked.has(entry.path)) select(entry);
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
                    selection.anchorAt(entry.path);
                    commands.open(entry);
                  }}
                >
                  <FileIcon entry={entry} />
                  <span className="entry-text">{entry.name}</span>
                  {entry.link && (
                    <span className="entry-link" title="Symbolic link" aria-label="symbolic link">
                      ↪
                    </span>
                  )}
                </button>
              </td>
              <td className="col-size">{entry.kind === 'directory' ? '' : formatBytes(entry.size)}</td>
              <td className="col-modified">{formatDateTime(entry.modifiedAtMs)}</td>
              <td className="col-actions">
                <RowActions
                  name={entry.name}
                  inline={[{ label: 'Download', icon: Download, onSelect: () => commands.download(entry) }]}
                  menu={menuFor(entry, entryCommands)}
                />
              </td>
            </tr>
          ))}
        </DataTable>
        {files.path && entries.length === 0 && !files.loading && (
          <p className="muted">
            {files.hiddenCount > 0
              ? `Only hidden files here (${files.hiddenCount}): tick Hidden to see them.`
              : 'Empty folder. Drop files here to upload.'}
          </p>
        )}
      </div>
      {/* Beside the list, not in it: the menu's keys and clicks are not the list's. */}
      {contextMenu && (
        <PopupMenu
          label={`Actions for ${contextMenu.entry.name}`}
          items={menuFor(contextMenu.entry, entryCommands)}
          at={contextMenu.at}
          onClose={closeContextMenu}
        />
      )}
    </>
  );
}
