// The starting point of the App-level component tests: fresh stores, a fresh fake bridge, and two
// environments ("Lab box", selected, and a command environment "Pi").
import { setBridge } from '../ipc/ipc-client';
import { useEnvironments } from '../stores/environments-store';
import { useUi } from '../stores/ui-store';
import { FakeBridge, makeEnv } from './fake-bridge';
import { resetStores } from './reset-stores';

export function withTwoEnvironments(): FakeBridge {
  resetStores();
  const bridge = new FakeBridge();
  setBridge(bridge);
  useEnvironments
    .getState()
    .setAll([
      makeEnv(),
      makeEnv({ id: 'env-2', name: 'Pi', settings: { kind: 'command', commandLine: 'ssh pi' } }),
    ]);
  useUi.getState().selectEnv('env-1');
  return bridge;
}
