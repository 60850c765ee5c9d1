// The one policy for an environment's first shell: it opens as soon as the environment is
// connected and its process list is in — Local on the very first launch, and every environment the
// user adds, on its first connect — so a new environment is ready to type into without another click.
import { useEnvironments } from '../environments/environments-store';
import { useUi } from '../app/ui-store';
import { openShell } from './process-actions';

export interface FirstShellOptions {
  /**
   * Select the environment and show its terminals when the shell opens (Local at first launch),
   * asked then: the user may have gone elsewhere while it connected.
   */
  select?: () => boolean;
  /** Asked when it would open: true leaves it unopened (a pane there shows a running process). */
  unless?: () => boolean;
  onFailed?: () => void;
}

/** Environments whose first shell waits for their connect, with how to open it. */
const waiting = new Map<string, FirstShellOptions>();

/**
 * Opens a shell on `envId` in a new tab once it is connected (now, if it is). It does not pull the
 * user off a panel they went to meanwhile (an SSH connect can take a while).
 */
export function openFirstShell(envId: string, options: FirstShellOptions = {}): void {
  if (useEnvironments.getState().byId[envId]?.link.kind === 'connected') open(envId, options);
  else waiting.set(envId, options);
}

/**
 * `envId` connected and its process list was loaded: a first shell waiting for it opens now. After
 * the list, not at the connect: the list, answered before the shell existed, would drop the shell's
 * process from the store.
 */
export function processesLoaded(envId: string): void {
  const options = waiting.get(envId);
  if (!options || useEnvironments.getState().byId[envId]?.link.kind !== 'connected') return;
  waiting.delete(envId);
  open(envId, options);
}

/** The environment was removed: its first shell no longer waits. */
export function forgetFirstShell(envId: string): void {
  waiting.delete(envId);
}

function open(envId: string, options: FirstShellOptions): void {
  if (options.unless?.()) return;
  // Whether to show it is asked once the shell has started, not before: a click on another panel
  // while the start was on its way must win (it used to be switched back to the terminals).
  void openShell(envId, { reveal: false }).then(
    () => {
      if (!options.select?.()) return;
      useUi.getState().selectEnv(envId);
      useUi.getState().showPanel(envId, 'terminals');
    },
    () => options.onFailed?.(),
  );
}
