// One tab of the terminal strip: its title (the user's name, else what its focused pane's kind
// calls it: for a terminal the program's title, else the command; for an editor the file's name),
// a marker for what happened there unseen, a dot while an editor in it has unsaved changes, rename
// in place (double-click or F2), drag to reorder, and close by ×, middle click or Delete.
import { useEffect, useRef, useState, useSyncExternalStore, type DragEvent } from 'react';
import { CircleStop, X } from 'lucide-react';
import type { PaneLeaf, Tab } from '../../shared/ipc';
import { MAX_TAB_TITLE_CHARS } from '../../shared/ipc';
import { requestCloseTab } from '../panes/pane-actions';
import { useActivity, type UnseenActivity } from '../panes/activity-store';
import { leaves, processIdOf, usePanes } from '../panes/panes-store';
import { processKeyString } from '../processes/process-key';
import { useUi } from '../app/ui-store';
import { paneTitle, subscribeToTitles } from '../panes/pane-kinds';
import { useEditors } from '../editor/editors-store';
import { useProcesses } from '../processes/processes-store';

/** Where a dragged tab would land, relative to this one. */
export type DropSide = 'before' | 'after';

export interface TabDragHandlers {
  onDragStart: (tabId: string, e: DragEvent) => void;
  onDragOver: (tabId: string, e: DragEvent) => void;
  onDrop: (tabId: string, e: DragEvent) => void;
  onDragEnd: () => void;
}

const ACTIVITY_LABELS: Record<UnseenActivity, string> = {
  output: 'new output',
  exited: 'process ended',
};

/** The pane that names `tab`: its focused one. */
function titlePane(tab: Tab): PaneLeaf {
  const all = leaves(tab.root);
  return all.find((l) => l.id === tab.focusedPaneId) ?? (all[0] as PaneLeaf);
}

/** The tab's title now: the user's name for it, else what its focused pane's kind calls it. */
export function currentTabTitle(envId: string, tab: Tab): string {
  return tab.name || paneTitle(envId, titlePane(tab).content);
}

/** The tab's title as shown, following the stores the title comes from. */
export function useTabTitle(envId: string, tab: Tab): string {
  // A string snapshot: only a change of the title itself renders again.
  return useSyncExternalStore(subscribeToTitles, () => currentTabTitle(envId, tab));
}

/** What happened unseen in any pane of the tab; an ended process outranks output. */
function useTabActivity(envId: string, tab: Tab): UnseenActivity | null {
  return useActivity((s) => {
    let found: UnseenActivity | null = null;
    for (const leaf of leaves(tab.root)) {
      const processId = processIdOf(leaf);
      if (processId === undefined) continue;
      const activity = s.unseenByKey[processKeyString({ envId, processId })];
      if (activity === 'exited') return activity;
      found ??= activity ?? null;
    }
    return found;
  });
}

/** Whether an editor in some pane of the tab has unsaved changes. */
function useTabUnsaved(tab: Tab): boolean {
  return useEditors((s) =>
    leaves(tab.root).some(
      ({ content }) =>
        content.kind === 'editor' &&
        s.tabs.some((t) => t.dirty && t.envId === content.environmentId && t.path === content.path),
    ),
  );
}

/**
 * The command the focused pane's shell runs now, as `running:<line>`, or how its last command
 * failed, as `failed:<exit code>` (shell integration); '' otherwise. A string, so only a change of
 * it renders again.
 */
function useTabCommand(envId: string, tab: Tab): string {
  return useProcesses((s) => {
    const processId = processIdOf(titlePane(tab));
    const last = processId ? s.byKey[processKeyString({ envId, processId })]?.commands?.at(-1) : undefined;
    if (!last) return '';
    if (last.endedAt === null) return `running:${last.line}`;
    return last.exitCode !== null && last.exitCode !== 0 ? `failed:${last.exitCode}` : '';
  });
}

/** Longest running command shown in a tab (the tooltip has all of it). */
const MAX_TAB_COMMAND_CHARS = 24;

function TabCommand({ status }: { status: string }) {
  if (status.startsWith('running:')) {
    const line = status.slice('running:'.length);
    const short = line.length > MAX_TAB_COMMAND_CHARS ? `${line.slice(0, MAX_TAB_COMMAND_CHARS - 1)}…` : line;
    return (
      // Out of the tab's name (which stays its title); the tooltip and the Processes panel say it.
      <span className="tab-command" title={`Running: ${line}`} aria-hidden="true">
        {short}
      </span>
    );
  }
  if (status.startsWith('failed:')) {
    const code = status.slice('failed:'.length);
    const label = `last command failed (exit ${code})`;
    return (
      <span className="tab-failed" role="img" aria-label={label} title={label}>
        {code}
      </span>
    );
  }
  return null;
}

export function TerminalTab(props: {
  envId: string;
  tab: Tab;
  index: number;
  active: boolean;
  dropSide: DropSide | null;
  drag: TabDragHandlers;
  onContextMenu: (e: React.MouseEvent) => void;
}) {
  const { envId, tab, index, active, dropSide, drag } = props;
  const title = useTabTitle(envId, tab);
  const activity = useTabActivity(envId, tab);
  const unsaved = useTabUnsaved(tab);
  const command = useTabCommand(envId, tab);
  const renaming = useUi((s) => s.renamingTabId === tab.id);
  const setRenaming = useUi((s) => s.setRenamingTab);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const wasRenaming = useRef(false);
  const count = leaves(tab.root).length;

  // Back on the tab after renaming, so the keyboard carries on where it was.
  useEffect(() => {
    if (wasRenaming.current && !renaming) buttonRef.current?.focus();
    wasRenaming.current = renaming;
  }, [renaming]);

  if (renaming)
    return (
      <RenameField
        initial={title}
        onDone={(name) => {
          // Enter on the shown program title unchanged names nothing: the title keeps following it.
          const changed = name !== null && (tab.name !== undefined || name !== title);
          if (changed) usePanes.getState().renameTab(envId, tab.id, name);
          setRenaming(null);
        }}
      />
    );
  return (
    <button
      ref={buttonRef}
      role="tab"
      className={`term-tab${dropSide ? ` drop-${dropSide}` : ''}`}
      aria-selected={active}
      aria-keyshortcuts="F2 Delete"
      title={title}
      draggable
      onClick={() => usePanes.getState().activateTab(envId, tab.id)}
      onDoubleClick={() => setRenaming(tab.id)}
      onAuxClick={(e) => e.button === 1 && requestCloseTab(envId, tab.id)}
      onKeyDown={(e) => {
        if (e.key === 'Delete') {
          e.preventDefault();
          requestCloseTab(envId, tab.id);
        } else if (e.key === 'F2') {
          e.preventDefault();
          setRenaming(tab.id);
        }
      }}
      onContextMenu={props.onContextMenu}
      onDragStart={(e) => drag.onDragStart(tab.id, e)}
      onDragOver={(e) => drag.onDragOver(tab.id, e)}
      onDrop={(e) => drag.onDrop(tab.id, e)}
      onDragEnd={drag.onDragEnd}
    >
      {activity && <ActivityMarker activity={activity} />}
      <span className="tab-title">
        {index + 1}: {title}
        {count > 1 ? ` (${count})` : ''}
      </span>
      <TabCommand status={command} />
      {unsaved && (
        <span className="editor-dirty" aria-label="unsaved changes" title="Unsaved changes">
          ●
        </span>
      )}
      <span
        className="close"
        aria-hidden="true"
        title="Close tab"
        onClick={(e) => {
          e.stopPropagation();
          requestCloseTab(envId, tab.id);
        }}
      >
        <X size={13} />
      </span>
    </button>
  );
}

/** Not colour alone: output is a dot, an ended process a stop sign, and each has a name. */
function ActivityMarker({ activity }: { activity: UnseenActivity }) {
  const label = ACTIVITY_LABELS[activity];
  return (
    <span className={`activity activity-${activity}`} role="img" aria-label={label} title={label}>
      {activity === 'exited' ? <CircleStop size={12} aria-hidden="true" /> : null}
    </span>
  );
}

/** Enter keeps the name, Escape keeps the old one; leaving the field keeps what was typed. */
function RenameField({ initial, onDone }: { initial: string; onDone: (name: string | null) => void }) {
  const [value, setValue] = useState(initial);
  const settled = useRef(false);
  const finish = (name: string | null) => {
    if (settled.current) return;
    settled.current = true;
    onDone(name);
  };
  return (
    <input
      className="tab-rename"
      aria-label="Tab name"
      title="Enter keeps the name; an empty name goes back to the program's title; Escape cancels"
      autoFocus
      maxLength={MAX_TAB_TITLE_CHARS}
      value={value}
      onFocus={(e) => e.currentTarget.select()}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') finish(value);
        else if (e.key === 'Escape') finish(null);
      }}
      onBlur={() => finish(value)}
    />
  );
}
