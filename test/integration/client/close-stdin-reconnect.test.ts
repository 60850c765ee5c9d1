// ProcessHandle.closeStdin across an ambiguous disconnect, against a real Tether server through the
// fault proxy: the close reached the server but its answer was lost in a cut, the client resends
// it after reconnecting, and the terminal still gets exactly one EOF.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { FaultProxy } from '../../support/fault-proxy';
import { startServer } from '../../support/exec-servers';
import { delay, waitFor } from './helpers';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** How long the test watches for a second EOF that must not come. */
const QUIET_MS = 1_000;

describe('closeStdin across a reconnect', () => {
  it('is resent after the answer was lost, and the terminal gets one EOF', async () => {
    const server = await startServer('tether', 'ws');
    cleanups.push(() => server.stop());
    const proxy = await FaultProxy.forUrl(server.url!);
    cleanups.push(() => proxy.close());
    const client = new RemoteExecServerClient({ transport: server.transportSpec(proxy.url()) });
    cleanups.push(() => client.close());
    const first = path.join(server.home, 'first-end');
    const second = path.join(server.home, 'second-end');
    const handle = await client.startProcess({
      argv: ['/bin/sh', '-c', `cat >/dev/null; touch '${first}'; cat >/dev/null; touch '${second}'`],
      cwd: server.home,
      tty: true,
    });
    // Answers from the server are held back, so the close arrives but its answer does not.
    proxy.setLatency(60_000, 'downstream');
    const closing = handle.closeStdin();
    await waitFor('the first EOF to reach the terminal', () => existsSync(first));
    proxy.cutAll();
    proxy.setLatency(0, 'downstream');
    await expect(closing).resolves.toBe('accepted');
    await delay(QUIET_MS);
    expect(existsSync(second), 'a second EOF ended the second cat').toBe(false);
    await handle.terminate();
  });
});
