// The one policy for an environment's first shell: it opens as soon as the environment is
// connected — Local on the very first launch, and every environment the user adds, on its first
// connect — so a new environment is ready to type into without another click.
import { useEnvironments } from '../environments/environments-store';
import { useUi } from '../app/ui-store';
import { openShell } from './process-actions';

export interface FirstShellOptions {
  /** Select the environment when its shell opens (Local at first launch: nothing is selected yet). */
  select?: boolean;
  onFailed?: () => void;
}

/**
 * Opens a shell on `envId` in a new tab once it is connected (now, if it is). It does not pull the
 * user off a panel they went to meanwhile (an SSH connect can take a while), and it stops waiting if
 * the environment is removed first.
 */
export function openFirstShell(envId: string, options: FirstShellOptions = {}): void {
  const open = () => {
    if (options.select) useUi.getState().selectEnv(envId);
    void openShell(envId, { reveal: false }).catch(() => options.onFailed?.());
  };
  if (useEnvironments.getState().byId[envId]?.link.kind === 'connected') {
    open();
    return;
  }
  const off = useEnvironments.subscribe((s) => {
    const env = s.byId[envId];
    if (env && env.link.kind !== 'connected') return;
    off();
    if (env) open();
  });
}
