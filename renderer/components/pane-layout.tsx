// Renders a tab's split tree: nested rows/columns of terminal panes.
import type { EnvironmentView } from '../../shared/ipc';
import type { PaneNode } from '../stores/panes-store';
import { useProcesses } from '../stores/processes-store';
import { processKeyString } from '../stores/process-key';
import { TerminalPane } from './terminal-pane';

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
  return (
    <div className={`split ${node.direction}`}>
      <PaneLayout env={env} node={node.children[0]} focusedPaneId={focusedPaneId} />
      <PaneLayout env={env} node={node.children[1]} focusedPaneId={focusedPaneId} />
    </div>
  );
}
