// The folder tree beside the file list: rooted in the workspace folder (else "/"), lazy (a folder's
// subfolders load when it opens), opened down to the current folder, which it marks and scrolls
// into view; entries dragged onto a folder move there.
import { useEffect, useRef, useState } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { loadTreeNode, navigate, toggleTreeNode } from './file-actions';
import { filesOf, useFiles } from './files-store';
import { FileIcon } from './file-icon';
import { draggedEntries, ENTRIES_DRAG_TYPE } from './file-table';

type MoveInto = (paths: string[], folder: string) => void;

export function FolderTree({
  envId,
  shown,
  root,
  onMove,
}: {
  envId: string;
  shown: boolean;
  /** The workspace folder, or null for the whole file system. */
  root: string | null;
  onMove: MoveInto;
}) {
  const rootPath = root ?? '/';
  const rootName = root ? (root.split('/').filter(Boolean).pop() ?? root) : '/';
  return (
    <nav className="tree" aria-label="Folder tree">
      {shown && (
        <ul>
          <TreeNode key={rootPath} envId={envId} path={rootPath} name={rootName} onMove={onMove} />
        </ul>
      )}
    </nav>
  );
}

function TreeNode({
  envId,
  path,
  name,
  onMove,
}: {
  envId: string;
  path: string;
  name: string;
  onMove: MoveInto;
}) {
  const [dropping, setDropping] = useState(false);
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
      <div
        ref={rowRef}
        className={`tree-row${current ? ' current' : ''}${dropping ? ' drop-target' : ''}`}
        onDragOver={(e) => {
          if (!e.dataTransfer.types.includes(ENTRIES_DRAG_TYPE)) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = 'move';
          setDropping(true);
        }}
        onDragLeave={() => setDropping(false)}
        onDrop={(e) => {
          const paths = draggedEntries(e.dataTransfer);
          setDropping(false);
          if (!paths) return;
          e.preventDefault();
          const moving = paths.filter((p) => p !== path);
          if (moving.length > 0) onMove(moving, path);
        }}
      >
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
            <TreeNode key={c.path} envId={envId} path={c.path} name={c.name} onMove={onMove} />
          ))}
        </ul>
      )}
    </li>
  );
}
