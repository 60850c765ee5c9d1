// The app through long outages, over a real link: the "network may be back" signal (wake, unlock,
// online, window focus) makes a reconnecting environment try now instead of after its backoff step
// (an hour, injected here), and an outage past the server's lifetime ends in the expired state —
// dated, with the processes that ended with it still listed and their output kept — from which the
// user starts a new session.
import { describe, expect, it } from 'vitest';
import type { EnvironmentView, ProcessEventView } from '../../../shared/ipc';
import { pidAlive } from '../../support/pids';
import { waitFor, type Harness } from './app-harness';
import { remoteAppRig } from './remote-app-rig';

const HOUR_MS = 3_600_000;
/** Every attempt after the first waits an hour: only the signal can bring the link back in time. */
const HOUR_LONG_BACKOFF = { rampMs: [], steadyMs: HOUR_MS, jitter: 0 };
const SESSION_TTL_MS = 1_500;

async function env(h: Harness, id: string): Promise<EnvironmentView> {
  return (await h.invoke('environments.list', {})).find((e) => e.id === id)!;
}

async function printing(h: Harness, envId: string, word: string) {
  const view = await h.invoke('processes.start', {
    envId,
    argv: ['/bin/sh', '-c', `echo ${word}; exec sleep 300`],
    tty: false,
  });
  await waitFor(
    async () => outputOf(await replay(h, envId, view.processId)) === `${word}\n`,
    `${word} printed`,
  );
  return view;
}

async function replay(h: Harness, envId: string, processId: string): Promise<ProcessEventView[]> {
  return (await h.invoke('processes.replay', { envId, processId, afterSeq: 0 })).events;
}

function outputOf(events: ProcessEventView[]): string {
  return events
    .filter((e) => e.kind === 'output')
    .map((e) => Buffer.from(e.data).toString())
    .join('');
}

/** Cuts the link and turns reconnects away until the client waits for its (hour-long) next attempt. */
async function cutUntilWaiting(rig: ReturnType<typeof remoteAppRig>): Promise<void> {
  expect(rig.proxy.cutAll(), 'the live connection is cut').toBe(1);
  rig.proxy.refuseNew(true);
  await waitFor(async () => {
    const { link } = await env(rig.h, rig.envId);
    return (
      link.kind === 'reconnecting' && link.nextRetryAt != null && link.nextRetryAt > Date.now() + HOUR_MS / 2
    );
  }, 'the client waiting an hour for its next attempt');
}

describe('the network-may-be-back signal', () => {
  const rig = remoteAppRig({ backoff: HOUR_LONG_BACKOFF });

  it('from the renderer (online, focus) and from the host (wake, unlock) makes the attempt now', async () => {
    const { h, envId, proxy } = rig;
    const shell = await printing(h, envId, 'before');

    await cutUntilWaiting(rig);
    proxy.restore();
    await h.invoke('environments.networkMayBeBack', {});
    await waitFor(
      async () => (await env(h, envId)).link.kind === 'connected',
      'resumed after the renderer signal',
    );

    await cutUntilWaiting(rig);
    proxy.restore();
    h.service.networkMayBeBack();
    await waitFor(
      async () => (await env(h, envId)).link.kind === 'connected',
      'resumed after the host signal',
    );

    // The same session both times: the process is still followed, nothing was lost or repeated.
    expect(outputOf(await replay(h, envId, shell.processId))).toBe('before\n');
    const view = (await h.invoke('processes.list', { envId })).find((p) => p.processId === shell.processId);
    expect(view?.state).toBe('running');
    expect((await env(h, envId)).health?.reconnectCount).toBe(2);
  });
});

describe('an outage past the session lifetime', () => {
  const rig = remoteAppRig({ serverArgs: ['--session-ttl-ms', String(SESSION_TTL_MS)] });

  it('ends in the expired state, lists the processes that ended with it, keeps their output', async () => {
    const { h, envId, proxy } = rig;
    const first = await printing(h, envId, 'one');
    const second = await printing(h, envId, 'two');
    const { capabilities } = (await env(h, envId)).info as { capabilities: Record<string, unknown> };
    expect(capabilities.tetherSessionTtlMs).toBe(SESSION_TTL_MS);

    expect(proxy.cutAll(), 'the live connection is cut').toBe(1);
    proxy.refuseNew(true);
    const reconnecting = await waitFor(async () => {
      const { link } = await env(h, envId);
      return link.kind === 'reconnecting' ? link : null;
    }, 'reconnecting');
    expect(reconnecting.sessionHeldUntil, 'the UI can say until when the session is held').toEqual(
      expect.any(Number),
    );
    // The server gave up on the session: its processes are gone.
    await waitFor(
      () => !pidAlive(first.pid!) && !pidAlive(second.pid!),
      'the session to expire on the server',
    );
    proxy.restore();
    h.service.networkMayBeBack();

    const expired = await waitFor(async () => {
      const { link } = await env(h, envId);
      return link.kind === 'failed' ? link : null;
    }, 'the expired state');
    expect(expired.code).toBe('unknownSession');
    expect(expired.expiredAt).toBe(reconnecting.sessionHeldUntil);
    const ended = (await h.invoke('processes.list', { envId })).filter((p) => p.state === 'lost');
    expect(ended.map((p) => p.processId).sort()).toEqual([first.processId, second.processId].sort());
    for (const p of ended) expect(p.endedAt).toBeGreaterThanOrEqual(expired.since);
    expect(outputOf(await replay(h, envId, first.processId))).toBe('one\n');
    expect(outputOf(await replay(h, envId, second.processId))).toBe('two\n');

    // A later signal leaves the expired state for the user to act on.
    h.service.networkMayBeBack();
    await h.invoke('environments.networkMayBeBack', {});
    expect((await env(h, envId)).link).toMatchObject({ kind: 'failed', code: 'unknownSession' });

    // "Start a new session".
    await h.invoke('environments.reconnectNow', { id: envId });
    await waitFor(async () => (await env(h, envId)).link.kind === 'connected', 'a new session');
    const fresh = await printing(h, envId, 'three');
    expect(fresh.state).toBe('running');
    expect(outputOf(await replay(h, envId, first.processId)), 'the old output is still kept').toBe('one\n');
  });
});
