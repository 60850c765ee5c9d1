// A user action made while the link is down waits for it only so long (ACTION_LINK_WAIT_MS), then
// fails unsent with "waiting for the link", instead of hanging as long as the outage. The fault
// proxy holds the link down (new connections refused, the live one cut); once it is back, the same
// actions work and a process started before the outage is still followed.
import { afterEach, describe, expect, it } from 'vitest';
import { ACTION_LINK_WAIT_MS } from '../../../electron/app/limits';
import { FaultProxy } from '../../support/fault-proxy';
import { startServer } from '../../support/exec-servers';
import { createHarness, eventsOf, outputText, waitFor } from './app-harness';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('user actions during an outage', () => {
  it('fail after a bounded wait with "waiting for the link"; after it they work again', async () => {
    const server = await startServer('tether', 'ws');
    cleanups.push(() => server.stop());
    const proxy = await FaultProxy.forUrl(server.url!);
    cleanups.push(() => proxy.close());
    const h = await createHarness({ autoConnect: false });
    cleanups.push(() => h.close());
    const envId = (
      await h.invoke('environments.add', {
        name: 'Remote',
        color: '#336699',
        settings: { kind: 'ws', url: proxy.url() },
        token: server.token,
      })
    ).id;
    const linkOf = async () =>
      (await h.invoke('environments.list', {})).find((e) => e.id === envId)?.link.kind;
    await waitFor(async () => (await linkOf()) === 'connected', 'connected');
    const ticker = await h.invoke('processes.start', {
      envId,
      argv: ['/bin/sh', '-c', 'i=0; while [ $i -lt 400 ]; do i=$((i+1)); echo "t $i"; sleep 0.05; done'],
      cwd: server.home,
      tty: false,
    });

    proxy.refuseNew(true);
    proxy.cutAll();
    await waitFor(async () => (await linkOf()) === 'reconnecting', 'reconnecting');
    const startedAt = Date.now();
    const start = h.invoke('processes.start', {
      envId,
      argv: ['/bin/echo', 'hi'],
      cwd: server.home,
      tty: false,
    });
    await expect(start).rejects.toMatchObject({
      code: 'disconnected',
      message: expect.stringMatching(/^Waiting for the link: "Remote" has been reconnecting/) as unknown,
    });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(ACTION_LINK_WAIT_MS - 100);
    await expect(h.invoke('files.home', { envId })).rejects.toMatchObject({ code: 'disconnected' });
    // Still reconnecting: the failed actions did not end the environment.
    expect(await linkOf()).toBe('reconnecting');

    proxy.refuseNew(false);
    proxy.restore();
    await waitFor(async () => (await linkOf()) === 'connected', 'connected again');
    const again = await h.invoke('processes.start', {
      envId,
      argv: ['/bin/echo', 'hi'],
      cwd: server.home,
      tty: false,
    });
    await waitFor(() => outputText(eventsOf(h, again.processId)) === 'hi\n', 'output after the outage');
    // The process from before the outage kept its output, in order and complete.
    await waitFor(
      () => outputText(eventsOf(h, ticker.processId)).includes('t 400\n'),
      'ticker to finish',
      60_000,
    );
    const lines = outputText(eventsOf(h, ticker.processId)).trimEnd().split('\n');
    expect(lines).toEqual(Array.from({ length: 400 }, (_, i) => `t ${i + 1}`));
  });
});
