// The one policy for an environment's first shell: it opens as soon as the environment is
// connected — Local on the very first launch, and every environment the user adds, on its first
// connect — so a new environment is ready to type into without another click.
import { useEnvironments } from '../environments/environments-store';
import { useUi } from '../app/ui-store';
import { openShell } from './process-actions';

/**
 * Opens a shell on `envId` in a new tab once it is connected (now, if it is), with the environment
 * selected. Stops waiting if the environment is removed first; `onFailed` runs if the start fails.
 */
export function openFirstShell(envId: string, onFailed: () => void = () => undefined): void {
  const open = () => {
    useUi.getState().selectEnv(envId);
    void openShell(envId).catch(onFailed);
  };
  if (useEnvironments.getState().byId[envId]?.link.kind === 'connected') {
    open();
    return;
  }
  const off = useEnvironments.subscribe((s) => {
    const env = s.byId[envId];
    if (env?.link.kind !== 'connected' && env) return;
    off();
    if (env) open();
  });
}
