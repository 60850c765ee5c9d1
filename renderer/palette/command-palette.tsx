// The command palette (Ctrl+Shift+P / F1): every command with its keys, filtered as you type by the
// starts of words (palette-match.ts); and Quick open (Ctrl+P): the workspace's files, ranked fuzzily
// (fuzzy-match.ts), with environments, terminal tabs and recent folders.
import { Command } from 'cmdk';
import { FileText, Folder, Server, SquareTerminal } from 'lucide-react';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { normalizeQuery, rankFuzzy, type Ranked } from './fuzzy-match';
import { loadWorkspaceFiles, openFileAt } from '../search/search-actions';
import { useSearch, type FileListing } from '../search/search-store';
import { navigate } from '../files/file-actions';
import { paletteCommands } from './commands';
import { useEnvironments } from '../environments/environments-store';
import { envPanes, usePanes } from '../panes/panes-store';
import { useRecentPaths } from '../files/recent-paths-store';
import { useTitleChanges } from '../panes/pane-kinds';
import { currentTabTitle } from '../terminals/terminal-tab';
import { useUi } from '../app/ui-store';
import { useRestoreFocus } from '../ui/restore-focus';
import { paletteScore } from './palette-match';

interface Controlled {
  value: string;
  onChange: (value: string) => void;
}

function Palette(props: {
  label: string;
  placeholder: string;
  onClose: () => void;
  children: ReactNode;
  /** Quick open filters and ranks by itself: it holds the query and the selected item. */
  search?: Controlled;
  selected?: Controlled;
  /** A line under the list (outside it: a listbox holds only options). */
  footer?: ReactNode;
}) {
  const ref = useRestoreFocus<HTMLDivElement>();
  return (
    <div
      ref={ref}
      className="backdrop palette-backdrop"
      onMouseDown={(e) => e.target === e.currentTarget && props.onClose()}
    >
      <Command
        className="palette"
        label={props.label}
        filter={paletteScore}
        loop
        {...(props.search ? { shouldFilter: false } : {})}
        {...(props.selected ? { value: props.selected.value, onValueChange: props.selected.onChange } : {})}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            props.onClose();
          }
        }}
      >
        <Command.Input
          autoFocus
          placeholder={props.placeholder}
          aria-label={props.label}
          {...(props.search ? { value: props.search.value, onValueChange: props.search.onChange } : {})}
        />
        <Command.List>
          <Command.Empty>Nothing matches.</Command.Empty>
          {props.children}
        </Command.List>
        {props.footer && <div className="palette-footer">{props.footer}</div>}
      </Command>
    </div>
  );
}

export function CommandPalette({ onClose }: { onClose: () => void }) {
  const run = (fn: () => void) => {
    onClose();
    fn();
  };
  return (
    <Palette label="Command palette" placeholder="Type a command" onClose={onClose}>
      {paletteCommands().map((c) => (
        <Command.Item key={c.id} value={c.label} onSelect={() => run(c.run)}>
          <span className="palette-label">{c.label}</span>
          {c.keys && <kbd>{c.keys}</kbd>}
        </Command.Item>
      ))}
    </Palette>
  );
}

interface QuickItem {
  /** Unique among the items (cmdk's value). */
  id: string;
  /** What the query is matched against, and shown highlighted. */
  text: string;
  /** Shown beside, muted: the environment of a tab or folder. */
  note?: string;
  icon: ReactNode;
  mono?: boolean;
  run: () => void;
}

interface QuickGroup {
  heading: string;
  items: Ranked<QuickItem>[];
}

/** Items shown per group: Quick open ranks every file, but a list of thousands helps nobody. */
const SHOWN_PER_GROUP = 50;

/** `text` with the characters at `positions` marked. */
function Highlighted({ text, positions, from = 0 }: { text: string; positions: number[]; from?: number }) {
  const marked = new Set(positions.map((p) => p - from));
  const parts: ReactNode[] = [];
  let run = '';
  let runMarked = false;
  const flush = (key: number) => {
    if (run) parts.push(runMarked ? <mark key={key}>{run}</mark> : run);
    run = '';
  };
  [...text].forEach((c, i) => {
    // Characters outside the BMP count two in `positions`; such names only lose their marks.
    const isMarked = marked.has(i);
    if (isMarked !== runMarked) {
      flush(i);
      runMarked = isMarked;
    }
    run += c;
  });
  flush(text.length);
  return <>{parts}</>;
}

function FileLabel({ path, positions }: { path: string; positions: number[] }) {
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  return (
    <>
      <span className="palette-label">
        <Highlighted text={name} positions={positions} from={slash + 1} />
      </span>
      {slash > 0 && (
        <span className="muted mono palette-dir">
          <Highlighted text={path.slice(0, slash)} positions={positions} />
        </span>
      )}
    </>
  );
}

/** The file listing's state, under the list: loading, failed, or cut at the host's limit; with a refresh. */
function ListingStatus({ envId, listing }: { envId: string; listing: FileListing | undefined }) {
  const refresh = (
    <button
      className="link"
      aria-label="Refresh the file list"
      onClick={() => void loadWorkspaceFiles(envId, true)}
    >
      Refresh
    </button>
  );
  if (!listing || listing.kind === 'loading') return <span className="muted">Listing files…</span>;
  if (listing.kind === 'failed')
    return (
      <span role="alert">
        Could not list the files{listing.root ? ` of ${listing.root}` : ''}: {listing.error} {refresh}
      </span>
    );
  const { root, files, truncated } = listing.listing;
  return (
    <span className="muted">
      {files.length} files in <span className="mono">{root}</span>
      {truncated && ' (only the first ones: the folder is too large to list whole)'} {refresh}
    </span>
  );
}

/**
 * Quick open (Ctrl+P): the files of the active environment's workspace, listed on its host and
 * fuzzy-matched as you type, with the environments, terminal tabs and recent folders to switch to.
 * Enter opens the selected file in the editor (or goes to the selected place).
 */
export function QuickOpen({ onClose }: { onClose: () => void }) {
  const { byId, order } = useEnvironments();
  const panesByEnv = usePanes((s) => s.byEnv);
  useTitleChanges();
  const recent = useRecentPaths((s) => s.byEnv);
  const activeEnvId = useUi((s) => s.activeEnvId);
  const envId = activeEnvId && byId[activeEnvId] ? activeEnvId : null;
  const listing = useSearch((s) => (envId ? s.listings[envId] : undefined));
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState('');
  const ui = useUi.getState();
  const run = (fn: () => void) => {
    onClose();
    fn();
  };
  useEffect(() => {
    if (envId) void loadWorkspaceFiles(envId);
  }, [envId]);

  const files = listing?.kind === 'ready' ? listing.listing : null;
  const fileItems = useMemo<QuickItem[]>(
    () =>
      envId && files
        ? files.files.map((path) => ({
            id: `file:${path}`,
            text: path,
            icon: <FileText size={14} aria-hidden="true" />,
            run: () => openFileAt(envId, `${files.root.replace(/\/+$/, '')}/${path}`),
          }))
        : [],
    [envId, files],
  );
  const envs = order.map((id) => byId[id]).filter((e) => e !== undefined);
  const switchGroups: Array<{ heading: string; items: QuickItem[] }> = [
    {
      heading: 'Environments',
      items: envs.map((env) => ({
        id: `env:${env.id}`,
        text: env.name,
        icon: <Server size={14} aria-hidden="true" style={{ color: env.color }} />,
        run: () => ui.selectEnv(env.id),
      })),
    },
    {
      heading: 'Terminals',
      items: envs.flatMap((env) =>
        envPanes(panesByEnv, env.id).tabs.map((tab, index) => ({
          id: `tab:${tab.id}`,
          text: `${index + 1}: ${currentTabTitle(env.id, tab)}`,
          note: env.name,
          icon: <SquareTerminal size={14} aria-hidden="true" />,
          run: () => {
            ui.selectEnv(env.id);
            ui.showPanel(env.id, 'terminals');
            usePanes.getState().activateTab(env.id, tab.id);
          },
        })),
      ),
    },
    {
      heading: 'Recent folders',
      items: envs.flatMap((env) =>
        (recent[env.id] ?? []).map((path) => ({
          id: `folder:${env.id}:${path}`,
          text: path,
          note: env.name,
          mono: true,
          icon: <Folder size={14} aria-hidden="true" />,
          run: () => {
            ui.selectEnv(env.id);
            ui.showPanel(env.id, 'files');
            void navigate(env.id, path);
          },
        })),
      ),
    },
  ];
  const rank = (items: QuickItem[]) => rankFuzzy(items, (item) => item.text, query, SHOWN_PER_GROUP);
  const fileGroup: QuickGroup | null = envId ? { heading: 'Files', items: rank(fileItems) } : null;
  const others: QuickGroup[] = switchGroups.map((g) => ({ heading: g.heading, items: rank(g.items) }));
  // With a query, the group holding the best match comes first, so Enter takes the best match;
  // without one, the places to switch to come first, as before there were files.
  const groups: QuickGroup[] = normalizeQuery(query)
    ? [...(fileGroup ? [fileGroup] : []), ...others].sort(
        (a, b) => (b.items[0]?.match.score ?? -Infinity) - (a.items[0]?.match.score ?? -Infinity),
      )
    : [...others, ...(fileGroup ? [fileGroup] : [])];
  const first = groups.find((g) => g.items.length > 0)?.items[0]?.item.id ?? '';
  useEffect(() => setSelected(first), [first]);

  return (
    <Palette
      label="Quick open"
      placeholder="File name, environment, terminal or folder"
      onClose={onClose}
      search={{ value: query, onChange: setQuery }}
      selected={{ value: selected, onChange: setSelected }}
      footer={envId && <ListingStatus envId={envId} listing={listing} />}
    >
      {groups
        .filter((group) => group.items.length > 0)
        .map((group) => (
          <Command.Group key={group.heading} heading={group.heading}>
            {group.items.map(({ item, match }) => (
              <Command.Item key={item.id} value={item.id} onSelect={() => run(item.run)}>
                {item.icon}
                {item.id.startsWith('file:') ? (
                  <FileLabel path={item.text} positions={match.positions} />
                ) : (
                  <span className={`palette-label${item.mono ? ' mono' : ''}`}>
                    <Highlighted text={item.text} positions={match.positions} />
                  </span>
                )}
                {item.note && <span className="muted">{item.note}</span>}
              </Command.Item>
            ))}
          </Command.Group>
        ))}
    </Palette>
  );
}
