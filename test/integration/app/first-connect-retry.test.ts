// A WebSocket environment whose very first connect failed because the server could not be reached
// retries by itself (issue #14: "after a failure the environment retries by itself when the
// network or the server comes back; Reconnect now stays as a shortcut"), over a real socket to a
// real exec-server behind a proxy that refuses connections until the "server comes back".
import { afterEach, describe, expect, it } from 'vitest';
import type { EnvironmentView } from '../../../shared/ipc';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { FaultProxy } from '../../support/fault-proxy';
import { createHarness, waitFor, type Harness } from './app-harness';
import { FIRST_CONNECT_RETRY_MS } from '../../../electron/app/environments/first-connect-retry';

let server: StartedServer | undefined;
let proxy: FaultProxy | undefined;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  await proxy?.close();
  await server?.stop();
  h = proxy = server = undefined;
});

/** Adds the environment (the proxy refusing connections, or not), and waits until its connect failed. */
async function addAndFail(options: {
  unreachable: boolean;
  token?: string;
}): Promise<{ id: string; failed: EnvironmentView }> {
  server = await startServer('tether', 'ws');
  proxy = await FaultProxy.forUrl(server.url!);
  proxy.refuseNew(options.unreachable);
  h = await createHarness({ autoConnect: false });
  const harness = h;
  const { id } = await harness.invoke('environments.add', {
    name: 'Build box',
    color: '#336699',
    settings: { kind: 'ws', url: proxy.url() },
    token: options.token ?? server.token,
  });
  const failed = await waitFor(async () => {
    const env = (await harness.invoke('environments.list', {})).find((e) => e.id === id);
    return env?.link.kind === 'failed' && env;
  }, 'the first connect to fail');
  return { id, failed };
}

const linkOf = async (id: string) =>
  (await h!.invoke('environments.list', {})).find((e) => e.id === id)?.link;

describe('a WebSocket environment whose first connect failed', () => {
  it('plans a retry, and connects at once when the network may be back', async () => {
    const { id, failed } = await addAndFail({ unreachable: true });
    expect(failed.link.retryAt).toBeGreaterThan(failed.link.since);
    proxy!.refuseNew(false);
    await h!.invoke('environments.networkMayBeBack', {});
    await waitFor(async () => (await linkOf(id))?.kind === 'connected', 'connected after the signal');
    expect((await linkOf(id))?.retryAt).toBeUndefined();
  });

  it('connects by itself once the server is reachable, with no signal and no Reconnect now', async () => {
    const { id } = await addAndFail({ unreachable: true });
    proxy!.refuseNew(false);
    await waitFor(
      async () => (await linkOf(id))?.kind === 'connected',
      'connected by the planned retry',
      FIRST_CONNECT_RETRY_MS * 6,
    );
  });

  it('leaves a failure that needs the user (a rejected token) alone: no retry planned', async () => {
    const { failed } = await addAndFail({ unreachable: false, token: 'not-the-token' });
    expect(failed.link.code).toBe('auth');
    expect(failed.link.retryAt).toBeUndefined();
  });
});
