// Renders a tab's split tree: nested rows/columns of terminal panes with drag handles between them.
import { Group, Panel, Separator } from 'react-resizable-panels';
import type { EnvironmentView } from '../../shared/ipc';
import type { PaneNode } from '../stores/panes-store';
import { useProcesses } from '../stores/processes-store';
import { processKeyString } from '../stores/process-key';
import { TerminalPane } from './terminal-pane';

/** A pane is never dragged smaller than this (its header and a few lines stay usable). */
const MIN_PANE_PX = 120;

export function PaneLayout({
  env,
  node,
  focusedPaneId,
}: {
  env: EnvironmentView;
  node: PaneNode;
  focusedPaneId: string;
}) {
  const process = useProcesses((s) =>
    node.type === 'leaf'
      ? s.byKey[processKeyString({ envId: env.id, processId: node.processId })]
      : undefined,
  );
  if (node.type === 'leaf') {
    return (
      <TerminalPane
        env={env}
        paneId={node.id}
        processId={node.processId}
        process={process}
        focused={node.id === focusedPaneId}
      />
    );
  }
  // A split's two sides share the room by a drag handle (also keyboard-resizable: it is a focusable
  // separator moved with the arrow keys).
  return (
    <Group orientation={node.direction} className={`split ${node.direction}`} id={node.id}>
      <Panel id={`${node.id}-first`} className="split-side" minSize={MIN_PANE_PX}>
        <PaneLayout env={env} node={node.children[0]} focusedPaneId={focusedPaneId} />
      </Panel>
      <Separator className="split-handle" aria-label="Resize panes" />
      <Panel id={`${node.id}-second`} className="split-side" minSize={MIN_PANE_PX}>
        <PaneLayout env={env} node={node.children[1]} focusedPaneId={focusedPaneId} />
      </Panel>
    </Group>
  );
}
