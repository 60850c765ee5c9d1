// Quitting the app and starting it again on the same data dir, against Tether's real ws server:
// the new AppService resumes the saved session, lists the processes again, replays each one's
// retained output and continues live (every line once), shows the exit code of a process that
// ended while the app was down, and says so in the process when the session expired meanwhile.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lastSeqOf, type PaneNode, type ProcessView } from '../../../shared/ipc';
import { SAVED_SESSIONS_FILE_NAME } from '../../../electron/app/persistence/saved-sessions';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { initializeReply, startHostileWsServer } from '../../support/hostile-server';
import { pidAlive } from '../../support/pids';
import { createHarness, eventsOf, outputText, waitFor, type Harness } from './app-harness';

function lines(from: number, to: number): string {
  return Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}\n`).join('');
}

describe('an app restart (AppService on the same data dir, Tether ws server)', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function firstRun(serverArgs: string[] = []) {
    const server: StartedServer = await startServer('tether', 'ws', { extraArgs: serverArgs });
    cleanups.push(() => server.stop());
    const h = await createHarness({ autoConnect: false });
    cleanups.push(() => h.close());
    const envId = (
      await h.invoke('environments.add', {
        name: 'Remote',
        color: '#336699',
        settings: { kind: 'ws', url: server.url! },
        token: server.token,
      })
    ).id;
    await waitFor(
      async () =>
        (await h.invoke('environments.list', {})).find((e) => e.id === envId)?.link.kind === 'connected',
      'remote connected',
    );
    return { server, h, envId };
  }

  /** Quits `h` and starts a new AppService on its data dir, the way a relaunched app does. */
  async function restart(h: Harness): Promise<Harness> {
    await h.close({ keepDataDir: true });
    expect(existsSync(path.join(h.dataDir, SAVED_SESSIONS_FILE_NAME))).toBe(true);
    const next = await createHarness({ dataDir: h.dataDir });
    cleanups.push(() => next.close());
    return next;
  }

  const viewOf = async (h: Harness, envId: string, processId: string): Promise<ProcessView | undefined> =>
    (await h.invoke('processes.list', { envId })).find((p) => p.processId === processId);

  it('resumes the session: processes listed again, output replayed then live, each line once', async () => {
    const { server, h, envId } = await firstRun();
    const ticker = await h.invoke('processes.start', {
      envId,
      argv: ['/bin/sh', '-c', 'i=0; while [ ! -f stop ]; do i=$((i+1)); echo "line $i"; sleep 0.02; done'],
      cwd: server.home,
      tty: false,
    });
    const finisher = await h.invoke('processes.start', {
      envId,
      argv: ['/bin/sh', '-c', 'echo waiting; while [ ! -f finish ]; do sleep 0.02; done; exit 3'],
      cwd: server.home,
      tty: false,
    });
    await waitFor(() => outputText(eventsOf(h, ticker.processId)).includes('line 20\n'), 'ticker output');
    await waitFor(() => outputText(eventsOf(h, finisher.processId)) === 'waiting\n', 'finisher output');
    const seenBeforeQuit = outputText(eventsOf(h, ticker.processId));
    const seqBeforeQuit = lastSeqOf(eventsOf(h, ticker.processId).at(-1)!);

    await h.close({ keepDataDir: true });
    // Saved at quit: the session, and each process with the last seq the app had delivered.
    const saved = JSON.parse(readFileSync(path.join(h.dataDir, SAVED_SESSIONS_FILE_NAME), 'utf8'));
    const savedTicker = saved.environments[envId].processes.find(
      (p: { processId: string }) => p.processId === ticker.processId,
    );
    // (The ticker keeps printing while the app quits, so the seq saved lies between these two.)
    expect(savedTicker.lastSeq).toBeGreaterThanOrEqual(seqBeforeQuit);
    expect(savedTicker.lastSeq).toBeLessThanOrEqual(lastSeqOf(eventsOf(h, ticker.processId).at(-1)!));
    // While the app is down: the ticker keeps printing, the finisher exits.
    writeFileSync(path.join(server.home, 'finish'), '');
    await waitFor(() => !pidAlive(finisher.pid!), 'the finisher to exit while the app is down');
    expect(pidAlive(ticker.pid!)).toBe(true);

    const h2 = await createHarness({ dataDir: h.dataDir });
    cleanups.push(() => h2.close());
    expect((await h2.invoke('processes.list', { envId })).map((p) => p.processId).sort()).toEqual(
      [ticker.processId, finisher.processId].sort(),
    );
    await waitFor(async () => (await viewOf(h2, envId, finisher.processId))?.state === 'exited', 'exited');
    expect(await viewOf(h2, envId, finisher.processId)).toMatchObject({ state: 'exited', exitCode: 3 });

    // A renderer of the new app: replay what is retained, then follow live.
    const replayed = await h2.invoke('processes.replay', { envId, processId: ticker.processId, afterSeq: 0 });
    // What the previous run received counts as shown (it kept no record of what its terminals
    // parsed); what the ticker printed while the app was down is fresh.
    expect(replayed.shownThroughSeq).toBe(savedTicker.lastSeq);
    const live = () => eventsOf(h2, ticker.processId).filter((e) => lastSeqOf(e) > replayed.lastSeq);
    const shown = () => outputText([...replayed.events, ...live()]);
    const grown = seenBeforeQuit.split('\n').length + 20;
    await waitFor(() => shown().split('\n').length > grown, 'output after the restart, live');
    writeFileSync(path.join(server.home, 'stop'), '');
    await waitFor(() => live().some((e) => e.kind === 'closed'), 'the ticker to close');
    const all = [...replayed.events, ...live()];
    const count = shown().trimEnd().split('\n').length;
    expect(shown()).toBe(lines(1, count));
    expect(shown().startsWith(seenBeforeQuit)).toBe(true);
    expect(all.filter((e) => e.kind === 'gap')).toEqual([]);
    expect(all.map((e) => lastSeqOf(e))).toEqual(all.map((_, i) => i + 1));
    expect(await viewOf(h2, envId, ticker.processId)).toMatchObject({ state: 'exited', exitCode: 0 });
  });

  it('keeps the session through two restarts in a row', async () => {
    const { server, h, envId } = await firstRun();
    const sleeper = await h.invoke('processes.start', {
      envId,
      argv: ['/bin/sh', '-c', 'echo hello; while [ ! -f stop ]; do sleep 0.02; done'],
      cwd: server.home,
      tty: false,
    });
    await waitFor(() => outputText(eventsOf(h, sleeper.processId)) === 'hello\n', 'output');
    // The middle run saves what it restored, so the third finds the same session and process.
    const h2 = await restart(h);
    const h3 = await restart(h2);
    const saved = JSON.parse(readFileSync(path.join(h2.dataDir, SAVED_SESSIONS_FILE_NAME), 'utf8'));
    expect(saved.environments[envId].processes[0]).toMatchObject({
      processId: sleeper.processId,
      lastSeq: 1,
    });
    await waitFor(async () => {
      const replayed = await h3.invoke('processes.replay', {
        envId,
        processId: sleeper.processId,
        afterSeq: 0,
      });
      return outputText(replayed.events) === 'hello\n';
    }, 'the output replayed after two restarts');
    expect(await viewOf(h3, envId, sleeper.processId)).toMatchObject({ state: 'running' });
  });

  it('leaves out a process too big to save (a huge argv), and still restores the others', async () => {
    const { server, h, envId } = await firstRun();
    const huge = await h.invoke('processes.start', {
      envId,
      argv: [
        '/bin/sh',
        '-c',
        'echo huge; while [ ! -f stop ]; do sleep 0.02; done',
        ...Array(1_100).fill('x'),
      ],
      cwd: server.home,
      tty: false,
    });
    const small = await h.invoke('processes.start', {
      envId,
      argv: ['/bin/sh', '-c', 'echo small; while [ ! -f stop ]; do sleep 0.02; done'],
      cwd: server.home,
      tty: false,
    });
    await waitFor(() => outputText(eventsOf(h, huge.processId)) === 'huge\n', 'huge output');
    const h2 = await restart(h);
    expect((await h2.invoke('processes.list', { envId })).map((p) => p.processId)).toEqual([small.processId]);
    expect(h2.eventsNamed('app.notice')).toEqual([]);
  });

  it("a server's absurd session id costs only its own environment the restore", async () => {
    const { server, h, envId } = await firstRun();
    // A second environment whose server names its session with 300 characters (the file allows 200).
    const hostile = await startHostileWsServer((request) => [
      request.method === 'initialize'
        ? initializeReply(request.id, false, 'x'.repeat(300))
        : { kind: 'text', text: JSON.stringify({ id: request.id, result: { status: 'ready' } }) },
    ]);
    cleanups.push(() => hostile.close());
    const hostileId = (
      await h.invoke('environments.add', {
        name: 'Hostile',
        color: '#993366',
        settings: { kind: 'ws', url: hostile.url },
      })
    ).id;
    await waitFor(
      async () =>
        (await h.invoke('environments.list', {})).find((e) => e.id === hostileId)?.link.kind === 'connected',
      'hostile connected',
    );
    const kept = await h.invoke('processes.start', {
      envId,
      argv: ['/bin/sh', '-c', 'echo kept; while [ ! -f stop ]; do sleep 0.02; done'],
      cwd: server.home,
      tty: false,
    });
    await waitFor(() => outputText(eventsOf(h, kept.processId)) === 'kept\n', 'kept output');
    const h2 = await restart(h);
    const saved = JSON.parse(readFileSync(path.join(h2.dataDir, SAVED_SESSIONS_FILE_NAME), 'utf8'));
    expect(Object.keys(saved.environments)).toEqual([envId]);
    expect((await h2.invoke('processes.list', { envId })).map((p) => p.processId)).toEqual([kept.processId]);
  });

  it('a saved file with one unusable entry still restores the other environments', async () => {
    const { server, h, envId } = await firstRun();
    const kept = await h.invoke('processes.start', {
      envId,
      argv: ['/bin/sh', '-c', 'echo kept; while [ ! -f stop ]; do sleep 0.02; done'],
      cwd: server.home,
      tty: false,
    });
    await waitFor(() => outputText(eventsOf(h, kept.processId)) === 'kept\n', 'kept output');
    await h.close({ keepDataDir: true });
    const file = path.join(h.dataDir, SAVED_SESSIONS_FILE_NAME);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    saved.environments['env-written-by-hand'] = { sessionId: 'y'.repeat(201), processes: [] };
    writeFileSync(file, JSON.stringify(saved));
    const h2 = await createHarness({ dataDir: h.dataDir });
    cleanups.push(() => h2.close());
    expect((await h2.invoke('processes.list', { envId })).map((p) => p.processId)).toEqual([kept.processId]);
    expect(JSON.stringify(await h2.invoke('app.notices', {}))).toMatch(/env-written-by-hand is unusable/);
  });

  it('keeps the terminal layout the renderer last saved, and refuses one split absurdly deep', async () => {
    const h = await createHarness({ autoConnect: false });
    cleanups.push(() => h.close());
    expect(await h.invoke('layout.get', {})).toBeNull();
    const layout = {
      byEnv: {
        remote: {
          tabs: [
            {
              id: 't1',
              root: {
                type: 'leaf' as const,
                id: 'pane-1',
                content: { kind: 'terminal' as const, processId: 'p1' },
              },
              focusedPaneId: 'pane-1',
            },
          ],
          activeTabId: 't1',
        },
      },
    };
    await h.invoke('layout.save', { byEnv: {} });
    await h.invoke('layout.save', layout);
    const h2 = await restart(h);
    expect(await h2.invoke('layout.get', {})).toEqual(layout);

    let root: PaneNode = { type: 'leaf', id: 'leaf', content: { kind: 'terminal', processId: 'p1' } };
    for (let i = 0; i < 10; i++)
      root = { type: 'split', id: `s${i}`, direction: 'vertical', children: [root, root] };
    const deep = {
      byEnv: { remote: { tabs: [{ id: 't', root, focusedPaneId: 'leaf' }], activeTabId: 't' } },
    };
    expect(await h2.raw('layout.save', deep)).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
  });

  it('keeps ended processes, remote and Local, and ends the Local ones still running at quit', async () => {
    const { server, h, envId } = await firstRun();
    const localId = (await h.invoke('environments.list', {})).find((e) => e.settings.kind === 'local')!.id;
    await h.invoke('environments.connect', { id: localId });
    await waitFor(
      async () =>
        (await h.invoke('environments.list', {})).find((e) => e.id === localId)?.link.kind === 'connected',
      'local connected',
    );
    const start = (env: string, script: string) =>
      h.invoke('processes.start', {
        envId: env,
        argv: ['/bin/sh', '-c', script],
        cwd: server.home,
        tty: false,
      });
    const remoteExited = await start(envId, 'exit 3');
    const localExited = await start(localId, 'exit 4');
    const localRunning = await start(localId, 'sleep 300');
    for (const [env, p] of [
      [envId, remoteExited],
      [localId, localExited],
    ] as const)
      await waitFor(async () => (await viewOf(h, env, p.processId))?.state === 'exited', 'exited');

    const h2 = await restart(h);
    expect(await viewOf(h2, envId, remoteExited.processId)).toMatchObject({ state: 'exited', exitCode: 3 });
    expect(await viewOf(h2, localId, localExited.processId)).toMatchObject({ state: 'exited', exitCode: 4 });
    const ended = await viewOf(h2, localId, localRunning.processId);
    expect(ended).toMatchObject({ state: 'lost', argv: ['/bin/sh', '-c', 'sleep 300'] });
    expect(ended?.failure).toMatch(/ended when Tether quit/);
  });

  it('says in the process that the session expired while the app was down', async () => {
    const { server, h, envId } = await firstRun(['--session-ttl-ms', '300']);
    const sleeper = await h.invoke('processes.start', {
      envId,
      argv: ['/bin/sh', '-c', 'echo hello; while [ ! -f stop ]; do sleep 0.02; done'],
      cwd: server.home,
      tty: false,
    });
    await waitFor(() => outputText(eventsOf(h, sleeper.processId)) === 'hello\n', 'output');
    await h.close({ keepDataDir: true });
    // The server ends a session's processes when it drops the session.
    await waitFor(() => !pidAlive(sleeper.pid!), 'the session to expire');

    const h2 = await createHarness({ dataDir: h.dataDir });
    cleanups.push(() => h2.close());
    await waitFor(async () => (await viewOf(h2, envId, sleeper.processId))?.state === 'lost', 'lost');
    const view = await viewOf(h2, envId, sleeper.processId);
    expect(view?.failure).toMatch(/Session lost: the server no longer had the session this process ran in/);
    const env = (await h2.invoke('environments.list', {})).find((e) => e.id === envId);
    expect(env?.link).toMatchObject({ kind: 'failed' });
    // The pane says it too: its last event is the failure.
    const replayed = await h2.invoke('processes.replay', {
      envId,
      processId: sleeper.processId,
      afterSeq: 0,
    });
    expect(replayed.events.at(-1)).toMatchObject({ kind: 'failed' });
  });
});
