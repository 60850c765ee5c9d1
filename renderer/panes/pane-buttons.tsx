// The buttons every pane's header shares: split right and down, and maximize/restore when the tab
// has other panes. The pane decides what a split opens and how its tooltips read.
import { Columns2, Maximize2, Minimize2, Rows2 } from 'lucide-react';
import { keysOfId } from '../palette/shortcuts';
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
