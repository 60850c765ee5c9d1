// Feeds the activity markers: output or an exit of a process no one can see right now is noted,
// and whatever comes into view (a tab shown, an environment selected, panes restored) is marked
// seen. "Seen" means its pane is on screen: the active tab of the selected environment's Terminals.
import type { EventPayload, ProcessView } from '../../shared/ipc';
import { useActivity } from './activity-store';
import { envPanes, leaves, processIdOf, usePanes } from './panes-store';
import { processKeyString } from '../processes/process-key';
import { panelOf, useUi } from '../app/ui-store';

/** The processes whose panes are on screen now. */
export function visibleProcessKeys(): Set<string> {
  const ui = useUi.getState();
  const envId = ui.activeEnvId;
  const shown = new Set<string>();
  if (!envId || panelOf(ui.panelByEnv, envId) !== 'terminals') return shown;
  const env = envPanes(usePanes.getState().byEnv, envId);
  const tab = env.tabs.find((t) => t.id === env.activeTabId);
  if (!tab) return shown;
  for (const leaf of leaves(tab.root)) {
    const processId = processIdOf(leaf);
    if (processId !== undefined && (tab.maximizedPaneId === undefined || leaf.id === tab.maximizedPaneId))
      shown.add(processKeyString({ envId, processId }));
  }
  return shown;
}

/** Notes output that arrived for processes not on screen. */
export function noteOutput(batches: EventPayload<'processes.events'>): void {
  let visible: Set<string> | null = null;
  for (const batch of batches) {
    if (!batch.events.some((e) => e.kind === 'output' && e.data.length > 0)) continue;
    const key = processKeyString(batch);
    visible ??= visibleProcessKeys();
    if (!visible.has(key)) useActivity.getState().note(key, 'output');
  }
}

const ENDED = new Set<ProcessView['state']>(['exited', 'failed', 'lost']);

/** Notes a process that ended while not on screen. */
export function noteProcessChange(before: ProcessView | undefined, view: ProcessView): void {
  if (!before || ENDED.has(before.state) || !ENDED.has(view.state)) return;
  const key = processKeyString(view);
  if (!visibleProcessKeys().has(key)) useActivity.getState().note(key, 'exited');
}

/** Keeps the markers in step with what is on screen; returns the unsubscribe. */
export function trackActivity(): () => void {
  const update = () => {
    const inPanes = new Set<string>();
    for (const [envId, env] of Object.entries(usePanes.getState().byEnv))
      for (const tab of env.tabs)
        for (const leaf of leaves(tab.root)) {
          const processId = processIdOf(leaf);
          if (processId !== undefined) inPanes.add(processKeyString({ envId, processId }));
        }
    const visible = visibleProcessKeys();
    // Seen now, or shown in no pane any more (closed, restarted under a new id): nothing to mark.
    const done = Object.keys(useActivity.getState().unseenByKey).filter(
      (key) => visible.has(key) || !inPanes.has(key),
    );
    if (done.length > 0) useActivity.getState().markSeen(done);
  };
  const offPanes = usePanes.subscribe(update);
  const offUi = useUi.subscribe(update);
  return () => {
    offPanes();
    offUi();
  };
}
