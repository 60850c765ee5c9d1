// The buttons every pane's header shares: split right and down, maximize/restore when the tab has
// other panes, and close. The pane decides what a split opens and how its tooltips read.
import { Columns2, Maximize2, Minimize2, Rows2, X } from 'lucide-react';
import { keysOfId } from '../palette/shortcuts';
import { requestClosePanes } from './pane-actions';
import { usePanes, type SplitDirection } from './panes-store';

export function PaneButtons({
  envId,
  paneId,
  maximized,
  canMaximize,
  split,
  splitTitle,
}: {
  envId: string;
  paneId: string;
  maximized: boolean;
  canMaximize: boolean;
  split: (direction: SplitDirection) => void;
  /** The tooltip of a split button, e.g. with its shortcut. */
  splitTitle: (direction: SplitDirection) => string;
}) {
  const label = maximized ? 'Restore panes' : 'Maximize pane';
  return (
    <>
      <button
        className="icon"
        aria-label="Split right"
        title={splitTitle('horizontal')}
        onClick={() => split('horizontal')}
      >
        <Columns2 size={14} aria-hidden="true" />
      </button>
      <button
        className="icon"
        aria-label="Split down"
        title={splitTitle('vertical')}
        onClick={() => split('vertical')}
      >
        <Rows2 size={14} aria-hidden="true" />
      </button>
      {canMaximize && (
        <button
          className="icon"
          aria-label={label}
          aria-pressed={maximized}
          title={`${label} (${keysOfId('maximizePane')})`}
          onClick={() => usePanes.getState().toggleMaximize(envId, paneId)}
        >
          {maximized ? (
            <Minimize2 size={14} aria-hidden="true" />
          ) : (
            <Maximize2 size={14} aria-hidden="true" />
          )}
        </button>
      )}
    </>
  );
}

/** Closes the pane (asking first when it still runs something: requestClosePanes decides). */
export function ClosePaneButton({ envId, paneId }: { envId: string; paneId: string }) {
  return (
    <button
      className="icon"
      aria-label="Close pane"
      title={`Close pane (${keysOfId('closePane')})`}
      onClick={() => requestClosePanes(envId, [paneId])}
    >
      <X size={14} aria-hidden="true" />
    </button>
  );
}
