// The warning before a quit, against a real AppService: asked for while a process of the Local
// environment (a child of the app) runs, not once none does, and never for a remote environment's
// processes, which keep running and come back after a restart. It also names the files with unsaved
// editor changes each renderer reported, until they are saved or that renderer goes away.
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../electron/app/handlers/dispatcher';
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

  it('names the files with unsaved changes each renderer reported, until saved or the renderer left', async () => {
    const h = await createHarness({ autoConnect: false });
    cleanups.push(() => h.close());
    expect(h.service.quitWarning()).toBeNull();

    await h.invoke('app.reportUnsavedEdits', { files: ['a.txt', 'b.md'] });
    expect(h.service.quitWarning()).toMatchObject({
      count: 0,
      unsavedFiles: ['a.txt', 'b.md'],
      message: '2 files have unsaved changes: a.txt, b.md.',
      detail: 'Quitting loses the unsaved changes in the editor.',
    });

    // A second window's report adds to the first; its going away takes its files with it.
    const second = h.service.attach(() => undefined);
    const reported = await dispatch(h.service.handlers, second, 'app.reportUnsavedEdits', {
      files: ['c.json'],
    });
    expect(reported).toMatchObject({ ok: true });
    expect(h.service.quitWarning()?.message).toBe('3 files have unsaved changes: a.txt, b.md, c.json.');
    h.service.detach(second);
    expect(h.service.quitWarning()?.unsavedFiles).toEqual(['a.txt', 'b.md']);

    // b.md saved: the next report replaces the last.
    await h.invoke('app.reportUnsavedEdits', { files: ['a.txt'] });
    expect(h.service.quitWarning()?.message).toBe('1 file has unsaved changes: a.txt.');
    await h.invoke('app.reportUnsavedEdits', { files: [] });
    expect(h.service.quitWarning()).toBeNull();

    // A long list is cut short in the one-line message; every name stays in unsavedFiles.
    const many = ['1.txt', '2.txt', '3.txt', '4.txt', '5.txt', '6.txt', '7.txt'];
    await h.invoke('app.reportUnsavedEdits', { files: many });
    expect(h.service.quitWarning()).toMatchObject({
      message: '7 files have unsaved changes: 1.txt, 2.txt, 3.txt, 4.txt, 5.txt and 2 more.',
      unsavedFiles: many,
    });
  });

  it('names both the ending processes and the unsaved files, and refuses an invalid report', async () => {
    const h = await createHarness();
    cleanups.push(() => h.close());
    const local = await h.invoke('processes.start', {
      envId: 'local',
      argv: ['/bin/sleep', '30'],
      cwd: h.dataDir,
      tty: false,
    });
    expect(local.state).toBe('running');
    await h.invoke('app.reportUnsavedEdits', { files: ['notes.md'] });
    const warning = h.service.quitWarning();
    expect(warning?.message).toBe(
      'Quitting ends 1 running process in Local. 1 file has unsaved changes: notes.md.',
    );
    expect(warning?.detail).toMatch(
      /^sleep 30 \(Local\)\n[\s\S]*\n\nQuitting loses the unsaved changes in the editor\.$/,
    );

    const invalid = await h.raw('app.reportUnsavedEdits', { files: [''] });
    expect(invalid.ok).toBe(false);
    expect(h.service.quitWarning()?.unsavedFiles).toEqual(['notes.md']);
    await h.invoke('processes.signal', { envId: 'local', processId: local.processId, signal: 'kill' });
  });
});
