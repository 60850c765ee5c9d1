// The folder tree beside the file list: lazy (a folder's subfolders load when it opens), opened
// down to the current folder, which it marks and scrolls into view.
import { useEffect, useRef } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { loadTreeNode, navigate, toggleTreeNode } from './file-actions';
import { filesOf, useFiles } from './files-store';
import { FileIcon } from './file-icon';

export function FolderTree({ envId, shown }: { envId: string; shown: boolean }) {
  return (
    <nav className="tree" aria-label="Folder tree">
      {shown && (
        <ul>
          <TreeNode envId={envId} path="/" name="/" />
        </ul>
      )}
    </nav>
  );
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
