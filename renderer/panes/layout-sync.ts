// Keeps the app host's copy of the terminal layout in step with the panes store: at start the
// stored layout comes back (before the process lists prune it), and every change is sent on.
// The host writes only the newest layout, so sending each change costs little.
import type { PaneLayout } from '../../shared/ipc';
import { invoke } from '../ipc/ipc-client';
import { usePanes } from './panes-store';

/**
 * Loads the stored layout into an empty panes store, then saves every change. Returns the
 * unsubscribe, and whether the host had a layout stored (Tether ran before).
 */
export async function syncLayout(): Promise<{ stop: () => void; restored: boolean }> {
  let stored: PaneLayout | null = null;
  try {
    stored = await invoke('layout.get', {});
  } catch {
    // A host without a stored layout (or a bridge that just dropped) starts with no panes.
  }
  if (stored && Object.keys(usePanes.getState().byEnv).length === 0)
    usePanes.setState({ byEnv: stored.byEnv });
  const stop = usePanes.subscribe((state, before) => {
    if (state.byEnv === before.byEnv) return;
    invoke('layout.save', { byEnv: state.byEnv }).catch(() => {
      // Not saved (the bridge dropped, or the disk refused): the next change tries again.
    });
  });
  return { stop, restored: stored !== null };
}
