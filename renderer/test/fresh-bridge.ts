// The starting point of every component test that talks to the host: fresh stores and a fresh fake
// bridge, installed as the app's bridge.
import { setBridge } from '../ipc/ipc-client';
import { FakeBridge } from './fake-bridge';
import { resetStores } from './reset-stores';

export function withFreshBridge(): FakeBridge {
  resetStores();
  const bridge = new FakeBridge();
  setBridge(bridge);
  return bridge;
}
