// The starting point of the App-level component tests: fresh stores, a fresh fake bridge, and two
// environments ("Lab box", selected, and a command environment "Pi").
import { useEnvironments } from '../environments/environments-store';
import { useUi } from '../app/ui-store';
import { makeEnv, type FakeBridge } from './fake-bridge';
import { withFreshBridge } from './fresh-bridge';

export function withTwoEnvironments(): FakeBridge {
  const bridge = withFreshBridge();
  useEnvironments
    .getState()
    .setAll([
      makeEnv(),
      makeEnv({ id: 'env-2', name: 'Pi', settings: { kind: 'command', commandLine: 'ssh pi' } }),
    ]);
  useUi.getState().selectEnv('env-1');
  return bridge;
}
