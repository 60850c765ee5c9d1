// The warning before a quit, against a real AppService: asked for while a process of the Local
// environment (a child of the app) runs, not once none does, and never for a remote environment's
// processes, which keep running and come back after a restart.
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../support/exec-servers';
import { createHarness, waitFor, type Harness } from './app-harness';

describe('the quit warning', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function stateOf(h: Harness, envId: string, processId: string) {
    return (await h.invoke('processes.list', { envId })).find((p) => p.processId === processId)?.state;
  }

  it('names the running local processes, and is gone once they ended; remote ones never count', async () => {
    const server = await startServer('tether', 'ws');
    cleanups.push(() => server.stop());
    const h = await createHarness();
    cleanups.push(() => h.close());
    const remote = await h.invoke('environments.add', {
      name: 'Remote',
      color: '#336699',
      settings: { kind: 'ws', url: server.url! },
      token: server.token,
    });
    const remoteSleep = await h.invoke('processes.start', {
      envId: remote.id,
      argv: ['/bin/sleep', '30'],
      cwd: server.home,
      tty: false,
    });
    expect(remoteSleep.state).toBe('running');
    expect(h.service.quitWarning()).toBeNull();

    const local = await h.invoke('processes.start', {
      envId: 'local',
      argv: ['/bin/sleep', '30'],
      cwd: server.home,
      tty: false,
    });
    expect(local.state).toBe('running');
    expect(h.service.quitWarning()).toMatchObject({
      count: 1,
      message: 'Quitting ends 1 running process in Local.',
    });
    expect(h.service.quitWarning()?.detail).toMatch(/^sleep 30 \(Local\)\n/);

    await h.invoke('processes.signal', { envId: 'local', processId: local.processId, signal: 'kill' });
    await waitFor(async () => (await stateOf(h, 'local', local.processId)) === 'exited', 'local exit');
    expect(h.service.quitWarning()).toBeNull();
  });
});
