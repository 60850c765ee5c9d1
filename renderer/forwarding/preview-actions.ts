// "Open in an app tab" (Preview): a forward's page in a preview pane of its environment. The desktop
// app shows it in a view of its own over the pane; a browser cannot hold another site's page safely
// in this one (see docs/forwarding.md), so web mode opens it in a browser tab instead, as *Open*.
import type { ForwardView, PaneContent } from '../../shared/ipc';
import { useUi } from '../app/ui-store';
import { hostKind } from '../ipc/host-kind';
import { invoke } from '../ipc/ipc-client';
import { envPanes, leaves, usePanes } from '../panes/panes-store';
import { openForward } from './forward-actions';
import { usePreviews } from './previews-store';

export type PreviewContent = Extract<PaneContent, { kind: 'preview' }>;

/** The preview view of a preview pane: one per environment and forward. */
export function previewId(envId: string, content: PreviewContent): string {
  return `${envId}/${content.forwardId}`;
}

/**
 * The forward a preview pane shows: the one it was opened for, or else the one now forwarding the
 * same host port (an auto forward comes back with a new id when its dev server prints its URL again).
 */
export function forwardOfPreview(list: ForwardView[], content: PreviewContent): ForwardView | undefined {
  return (
    list.find((f) => f.id === content.forwardId) ??
    list.find((f) => f.port === content.port && f.host === 'localhost')
  );
}

/** Shows the forward's page in a preview pane (the one that shows it already, if any). */
export async function previewForward(f: ForwardView): Promise<void> {
  if (hostKind() === 'web') {
    await openForward(f);
    return;
  }
  const panes = usePanes.getState();
  const content: PreviewContent = { kind: 'preview', forwardId: f.id, port: f.port };
  const tab = envPanes(panes.byEnv, f.envId).tabs.find((t) =>
    leaves(t.root).some((l) => l.content.kind === 'preview' && l.content.forwardId === f.id),
  );
  if (tab) panes.activateTab(f.envId, tab.id);
  else panes.openTab(f.envId, content);
  useUi.getState().showPanel(f.envId, 'terminals');
}

let retained: string | null = null;

/** Closes the views no pane shows any more (a layout change; sent only when the set changed). */
export function retainPreviews(shown: { envId: string; content: PreviewContent }[]): void {
  if (hostKind() !== 'electron') return;
  const ids = [...new Set(shown.map(({ envId, content }) => previewId(envId, content)))].sort();
  const key = ids.join('\n');
  if (key === retained) return;
  retained = key;
  const kept = new Set(ids);
  usePreviews
    .getState()
    .forget(new Set(Object.keys(usePreviews.getState().byId).filter((id) => !kept.has(id))));
  invoke('preview.retain', { ids }).catch(() => {
    retained = null;
  });
}
