// One terminal pane: header (title, state, size-fixed, actions, maximize/restore), a slim
// reconnect banner, the inline exit line with restart, the search bar, and the xterm view fitted
// to the pane.
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  ClipboardPaste,
  Columns2,
  Copy,
  Eraser,
  Maximize2,
  Minimize2,
  Rows2,
  Search,
  TextSelect,
  X,
} from 'lucide-react';
import type { EnvironmentView, ProcessView } from '../../shared/ipc';
import { PANE_ID_ATTRIBUTE, requestClosePanes } from '../panes/pane-actions';
import { keepProcess, restartProcess, takeOverProcess } from '../processes/process-actions';
import { openShell } from '../processes/process-actions';
import { errorMessage } from '../../shared/error-message';
import { linkStatus } from '../health/link-status';
import { useHostContact } from '../app/host-contact-store';
import { formatEnding } from '../ui/format';
import { usePanes } from '../panes/panes-store';
import { ClosePaneButton, PaneButtons } from '../panes/pane-buttons';
import { processKeyString } from '../processes/process-key';
import { useProgramTitles } from './program-titles-store';
import { keysOfId } from '../palette/shortcuts';
import { tabTitle } from './tab-title';
import { useSettings } from '../settings/settings-store';
import { useUi } from '../app/ui-store';
import { terminalFor } from './xterm/terminal-registry';
import { rightClickAction } from './xterm/right-click';
import type { TerminalStatus } from './xterm/process-terminal';
import { useNow } from '../ui/use-now';
import { contextMenuPoint, PopupMenu, type MenuEntry } from '../ui/popup-menu';
import { StatusIcon } from '../health/status-indicator';
import { ProcessStateBadge } from '../processes/process-badge';
import { TerminalSearchBar } from './terminal-search-bar';
import { modalIsOpen } from '../ui/modal';

export function TerminalPane(props: {
  env: EnvironmentView;
  paneId: string;
  process: ProcessView | undefined;
  processId: string;
  focused: boolean;
  /** How many panes of the tab this one, maximized, hides (0 when not maximized). */
  hiddenPanes: number;
  /** The tab has other panes, so this one can be maximized. */
  canMaximize: boolean;
}) {
  const { env, paneId, process, processId, focused, hiddenPanes, canMaximize } = props;
  const maximized = hiddenPanes > 0;
  const mountRef = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<TerminalStatus | null>(null);
  const [restartError, setRestartError] = useState<string | null>(null);
  const searchOpen = useUi((s) => s.searchPaneId === paneId);
  const toggleSearch = useUi((s) => s.toggleSearch);
  const { focusPane, toggleMaximize } = usePanes.getState();
  const programTitle = useProgramTitles((s) => s.byKey[processKeyString({ envId: env.id, processId })]);
  const now = useNow();
  const hostLost = useHostContact((s) => s.lost);
  const link = linkStatus(env, now, hostLost);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const terminal = () => terminalFor({ envId: env.id, processId }, useSettings.getState().settings);
  const closeMenu = useCallback(() => {
    setMenuAt(null);
    terminalFor({ envId: env.id, processId }, useSettings.getState().settings).focus();
  }, [env.id, processId]);

  useEffect(() => {
    const host = mountRef.current;
    if (!host) return;
    const terminal = terminalFor({ envId: env.id, processId }, useSettings.getState().settings);
    terminal.attach(host);
    setStatus(terminal.getStatus());
    const offStatus = terminal.onStatus(setStatus);
    const observer = new ResizeObserver(() => terminal.fit());
    observer.observe(host);
    return () => {
      observer.disconnect();
      offStatus();
      terminal.detach(host);
    };
  }, [env.id, processId]);

  // A pane that opens behind a dialog (a first shell starting while the user fills in a form) leaves
  // the focus where the user types; the dialog gives focus back to the page when it closes.
  useEffect(() => {
    if (focused && !modalIsOpen())
      terminalFor({ envId: env.id, processId }, useSettings.getState().settings).focus();
  }, [focused, env.id, processId]);

  const watched = process?.watched;
  const title = watched
    ? `Watching ${watched.clientName || 'another client'}'s \`${process?.title ?? processId}\``
    : tabTitle({ programTitle, commandTitle: process?.title ?? processId });
  const [watchError, setWatchError] = useState<string | null>(null);
  const watchAction = (run: (key: { envId: string; processId: string }) => Promise<void>) =>
    void run({ envId: env.id, processId }).then(
      () => setWatchError(null),
      (e: unknown) => setWatchError(errorMessage(e)),
    );
  const maximizeKeys = keysOfId('maximizePane');
  const maximizeLabel = maximized ? 'Restore panes' : 'Maximize pane';
  const ended =
    process && (process.state === 'exited' || process.state === 'failed' || process.state === 'lost');
  const split = (direction: 'horizontal' | 'vertical') =>
    void openShell(env.id, { splitOf: { paneId, direction } }).catch(() => undefined);
  const clipboardFailed = (e: unknown) => setRestartError(`Clipboard: ${errorMessage(e)}`);
  const menuItems = (): MenuEntry[] => [
    {
      label: 'Copy',
      icon: Copy,
      keys: 'Ctrl+Shift+C',
      disabled: !terminal().hasSelection(),
      onSelect: () => void terminal().copySelection().catch(clipboardFailed),
    },
    {
      label: 'Paste',
      icon: ClipboardPaste,
      keys: 'Ctrl+Shift+V',
      onSelect: () => void terminal().pasteFromClipboard().catch(clipboardFailed),
    },
    { label: 'Select all', icon: TextSelect, onSelect: () => terminal().selectAll() },
    { label: 'Clear', icon: Eraser, onSelect: () => terminal().clear() },
    'separator',
    { label: 'Search', icon: Search, keys: keysOfId('search'), onSelect: () => toggleSearch(paneId) },
    {
      label: 'Split right',
      icon: Columns2,
      keys: keysOfId('splitRight'),
      onSelect: () => split('horizontal'),
    },
    { label: 'Split down', icon: Rows2, keys: keysOfId('splitDown'), onSelect: () => split('vertical') },
    ...(canMaximize
      ? [
          {
            label: maximizeLabel,
            icon: maximized ? Minimize2 : Maximize2,
            keys: maximizeKeys,
            onSelect: () => toggleMaximize(env.id, paneId),
          },
        ]
      : []),
    'separator',
    {
      label: 'Close pane',
      icon: X,
      keys: keysOfId('closePane'),
      onSelect: () => requestClosePanes(env.id, [paneId]),
    },
  ];

  return (
    <section
      className={`pane${focused ? ' focused' : ''}${maximized ? ' maximized' : ''}`}
      aria-label={`Terminal ${title}`}
      {...{ [PANE_ID_ATTRIBUTE]: paneId }}
      onMouseDown={() => focusPane(env.id, paneId)}
      onFocus={() => focusPane(env.id, paneId)}
      onKeyDown={(e) => {
        // Escape restores from the header's controls; inside the terminal it belongs to the program.
        if (e.key === 'Escape' && maximized && !mountRef.current?.contains(e.target as Node)) {
          e.preventDefault();
          toggleMaximize(env.id, paneId);
        }
      }}
    >
      <header className="pane-header">
        <span className="pane-title" title={title}>
          {title}
        </span>
        {process && <ProcessStateBadge process={process} />}
        {/* Only a live process has a size to fix; an ended one has none to change. */}
        {status?.sizeFixed && process?.state === 'running' && (
          <span className="badge" title="The server cannot resize this terminal">
            size fixed
          </span>
        )}
        {watched && !watched.control && (
          <span className="badge" title="Typing, resizing and signals do not reach this process">
            read-only
          </span>
        )}
        {watched && !watched.control && process?.state === 'running' && (
          <button className="small" onClick={() => watchAction(takeOverProcess)}>
            Take over
          </button>
        )}
        {watched?.control && !watched.kept && process?.state === 'running' && (
          <button
            className="small"
            title="Move the process under this app's session: it no longer ends when its owner's session does"
            onClick={() => watchAction(keepProcess)}
          >
            Keep
          </button>
        )}
        {maximized && (
          <span className="badge" title="The other panes keep running; restore to see them">
            {hiddenPanes} more hidden
          </span>
        )}
        <span className="spacer" />
        <button
          className="icon"
          aria-label="Search"
          title={`Search (${keysOfId('search')})`}
          aria-pressed={searchOpen}
          onClick={() => toggleSearch(paneId)}
        >
          <Search size={14} aria-hidden="true" />
        </button>
        <PaneButtons
          envId={env.id}
          paneId={paneId}
          maximized={maximized}
          canMaximize={canMaximize}
          split={split}
          splitTitle={(direction) =>
            direction === 'horizontal'
              ? `Split right (${keysOfId('splitRight')})`
              : `Split down (${keysOfId('splitDown')})`
          }
        />
        <ClosePaneButton envId={env.id} paneId={paneId} />
      </header>
      {(link.kind === 'reconnecting' || link.kind === 'connecting' || link.kind === 'stalled') && (
        <div className="banner" role="status">
          <StatusIcon kind={link.kind} /> Link {link.text} — typing is kept and delivered once the link is
          back.
        </div>
      )}
      {link.kind === 'failed' && (
        <div className="banner bad" role="status">
          <StatusIcon kind={link.kind} /> Link {link.text} — the environment view says why.
        </div>
      )}
      {link.kind === 'expired' && (
        <div className="banner bad" role="status">
          {link.icon} The {link.text}; the processes of that session ended with it. The output below is kept.
        </div>
      )}
      {watched?.control && (
        <div className="banner" role="status">
          {watched.kept
            ? `Kept: this process now lives in this app's session; ${watched.clientName || 'its first client'} may still type into it too.`
            : `Control is shared with ${watched.clientName || 'another client'}: what you type, resizes and signals reach its process. It still ends when that client's session does, unless you choose Keep.`}
        </div>
      )}
      {watchError && (
        <div className="banner bad" role="alert">
          {watchError}
        </div>
      )}
      {status?.inputError && (
        <div className="banner bad" role="alert">
          Input not delivered: {status.inputError}
        </div>
      )}
      {searchOpen && (
        <TerminalSearchBar envId={env.id} processId={processId} onClose={() => toggleSearch(paneId)} />
      )}
      <div
        className="terminal-mount"
        ref={mountRef}
        onContextMenu={(e) => {
          e.preventDefault();
          // 'select-word' needs nothing here: xterm selected the word (an option) before the menu opens.
          if (rightClickAction(useSettings.getState().settings.rightClick, e) === 'paste')
            void terminal().pasteFromClipboard().catch(clipboardFailed);
          else setMenuAt(contextMenuPoint(e));
        }}
      />
      {menuAt && <PopupMenu label="Terminal" items={menuItems()} at={menuAt} onClose={closeMenu} />}
      {ended && (
        <div className="exit-line" role="status">
          {formatEnding(process)} ·{' '}
          <button
            className="link"
            onClick={() =>
              restartProcess({ envId: env.id, processId }).catch((e: unknown) =>
                setRestartError(errorMessage(e)),
              )
            }
          >
            restart
          </button>
          {restartError && <span className="error"> {restartError}</span>}
        </div>
      )}
    </section>
  );
}
