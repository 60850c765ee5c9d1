// Renders a tab's split tree: nested rows/columns of panes with drag handles between them, or only
// the maximized pane (the others stay in the tree, their processes running, until restored). Each
// leaf is drawn by its content's pane kind (pane-kinds.tsx).
import { Group, Panel, Separator } from 'react-resizable-panels';
import type { EnvironmentView, Tab } from '../../shared/ipc';
import { leaves, type PaneNode } from './panes-store';
import { PaneView } from './pane-kinds';

/** A pane is never dragged smaller than this (its header and a few lines stay usable). */
const MIN_PANE_PX = 120;

/** What every pane of a tab needs to know about the tab it is in. */
interface TabContext {
  env: EnvironmentView;
  focusedPaneId: string;
  paneCount: number;
  maximizedPaneId: string | undefined;
}

export function PaneLayout({ env, tab }: { env: EnvironmentView; tab: Tab }) {
  const all = leaves(tab.root);
  const context: TabContext = {
    env,
    focusedPaneId: tab.focusedPaneId,
    paneCount: all.length,
    maximizedPaneId: tab.maximizedPaneId,
  };
  const maximized = all.find((l) => l.id === tab.maximizedPaneId);
  return <PaneNodeView node={maximized ?? tab.root} context={context} />;
}

function PaneNodeView({ node, context }: { node: PaneNode; context: TabContext }) {
  if (node.type === 'leaf') {
    return (
      <PaneView
        env={context.env}
        paneId={node.id}
        content={node.content}
        focused={node.id === context.focusedPaneId}
        hiddenPanes={context.maximizedPaneId === node.id ? context.paneCount - 1 : 0}
        canMaximize={context.paneCount > 1}
      />
    );
  }
  // A split's two sides share the room by a drag handle (also keyboard-resizable: it is a focusable
  // separator moved with the arrow keys).
  return (
    <Group orientation={node.direction} className={`split ${node.direction}`} id={node.id}>
      <Panel id={`${node.id}-first`} className="split-side" minSize={MIN_PANE_PX}>
        <PaneNodeView node={node.children[0]} context={context} />
      </Panel>
      <Separator className="split-handle" aria-label="Resize panes" />
      <Panel id={`${node.id}-second`} className="split-side" minSize={MIN_PANE_PX}>
        <PaneNodeView node={node.children[1]} context={context} />
      </Panel>
    </Group>
  );
}
