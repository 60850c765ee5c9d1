// Processes through the AppService against Tether's stdio server (Local) and codex's ws server:
// ordered gapless streaming, input, resize, restart, replay after a renderer reload without
// duplicates, and flow control holding under a flood while an interrupt still gets through.
// Every test gets its own AppService (and codex server), so none depends on what another left.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastSeqOf, type ProcessEventBatch, type ProcessEventView } from '../../../shared/ipc';
import {
  PROCESS_LOG_LIMIT_BYTES,
  RENDERER_WINDOW_BYTES,
  SERVER_OUTPUT_WINDOW_BYTES,
} from '../../../electron/app/limits';
import { dispatch } from '../../../electron/app/handlers/dispatcher';
import type { RendererFeed } from '../../../electron/app/processes/renderer-link';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { createHarness, eventsOf, outputText as outputTextAs, waitFor, type Harness } from './app-harness';
import { pidAlive } from '../../support/pids';

/** Slack over a window: one server chunk or one batch may straddle the bound. */
const CHUNK_SLACK = 1_048_576;

/** This file reads output as latin1: one character per byte. */
const outputText = (events: ProcessEventView[]): string => outputTextAs(events, 'latin1');

function expectStrictlyAscending(events: ProcessEventView[]): void {
  const seqs = events.map((e) => lastSeqOf(e));
  for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]!);
}

async function connected(h: Harness, envId: string): Promise<void> {
  await waitFor(
    async () =>
      (await h.invoke('environments.list', {})).find((e) => e.id === envId)?.link.kind === 'connected',
    `${envId} connected`,
  );
}

function withBase64(events: ProcessEventView[]): unknown[] {
  return events.map((e) =>
    e.kind === 'output' ? { ...e, data: Buffer.from(e.data).toString('base64') } : e,
  );
}

async function ackAll(
  h: Harness,
  feed: RendererFeed,
  envId: string,
  processId: string,
  until: () => boolean,
): Promise<void> {
  let acked = 0;
  await waitFor(
    () => {
      const sent = eventsOf(h, processId).reduce(
        (sum, e) => sum + (e.kind === 'output' ? e.data.byteLength : 0),
        0,
      );
      if (sent > acked) {
        feed.ack(envId, processId, sent - acked);
        acked = sent;
      }
      return until();
    },
    `${processId} drained`,
    60_000,
  );
}

describe('processes on the Local environment (Tether stdio server)', () => {
  // Fresh per test: the flood test's bounds are environment-wide (bufferedBytes counts every process
  // of the environment), and the harness's renderer feed would otherwise carry earlier processes.
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
    await connected(h, 'local');
  });
  afterEach(async () => {
    await h?.close();
  });

  it('streams output in seq order, gapless, with exit code and state', async () => {
    const view = await h.invoke('processes.start', {
      envId: 'local',
      argv: ['seq', '1', '30000'],
      tty: false,
    });
    expect(view.state).toBe('running');
    expect(view.pid).toBeTypeOf('number');
    await waitFor(() => eventsOf(h, view.processId).some((e) => e.kind === 'closed'), 'closed');
    const events = eventsOf(h, view.processId);
    expectStrictlyAscending(events);
    expect(events.some((e) => e.kind === 'gap')).toBe(false);
    expect(outputText(events)).toBe(Array.from({ length: 30000 }, (_, i) => `${i + 1}\n`).join(''));
    const list = await h.invoke('processes.list', { envId: 'local' });
    expect(list.find((p) => p.processId === view.processId)).toMatchObject({ state: 'exited', exitCode: 0 });
  });

  it('ends a process input on processes.closeStdin, after the input written before it', async () => {
    const view = await h.invoke('processes.start', { envId: 'local', argv: ['sort'], tty: false });
    await h.invoke('processes.write', { envId: 'local', processId: view.processId, data: 'pear\napple\n' });
    await h.invoke('processes.closeStdin', { envId: 'local', processId: view.processId });
    await waitFor(() => eventsOf(h, view.processId).some((e) => e.kind === 'closed'), 'sort to finish');
    expect(outputText(eventsOf(h, view.processId))).toBe('apple\npear\n');
    await expect(
      h.invoke('processes.write', { envId: 'local', processId: view.processId, data: 'x' }),
    ).rejects.toMatchObject({ code: 'conflict' });
  });

  it('runs a login shell by default in the home folder, takes input, resizes, and restarts', async () => {
    const shell = await h.invoke('processes.start', {
      envId: 'local',
      tty: true,
      size: { cols: 100, rows: 30 },
    });
    const home = (await h.invoke('files.home', { envId: 'local' })).home;
    expect(shell).toMatchObject({ cwd: home, tty: true, resizable: true, size: { cols: 100, rows: 30 } });
    expect(shell.argv.at(-1)).toBe('-l');
    const resized = await h.invoke('processes.resize', {
      envId: 'local',
      processId: shell.processId,
      cols: 77,
      rows: 22,
    });
    expect(resized).toEqual({ applied: true });
    await h.invoke('processes.write', {
      envId: 'local',
      processId: shell.processId,
      data: 'stty size; echo mark-$((6*7))\r',
    });
    await waitFor(() => outputText(eventsOf(h, shell.processId)).includes('mark-42'), 'shell output');
    expect(outputText(eventsOf(h, shell.processId))).toContain('22 77');
    await h.invoke('processes.write', {
      envId: 'local',
      processId: shell.processId,
      data: Buffer.from('exit 5\r'),
    });
    await waitFor(
      async () =>
        (await h.invoke('processes.list', { envId: 'local' })).find((p) => p.processId === shell.processId)
          ?.state === 'exited',
      'shell exited',
    );
    await expect(
      h.invoke('processes.write', { envId: 'local', processId: shell.processId, data: 'x' }),
    ).rejects.toMatchObject({ code: 'conflict' });

    const line = await h.invoke('processes.start', {
      envId: 'local',
      shellLine: 'echo "from $0 in $(pwd)"',
      cwd: '/tmp',
      tty: false,
    });
    await waitFor(() => outputText(eventsOf(h, line.processId)).includes('in /tmp'), 'shellLine output');
    const again = await h.invoke('processes.restart', { envId: 'local', processId: line.processId });
    expect(again.processId).not.toBe(line.processId);
    expect(again).toMatchObject({ argv: line.argv, cwd: '/tmp' });
    // The restarted process takes the old one's row.
    const afterRestart = (await h.invoke('processes.list', { envId: 'local' })).map((p) => p.processId);
    expect(afterRestart).toContain(again.processId);
    expect(afterRestart).not.toContain(line.processId);
    expect(h.eventsNamed('processes.removed')).toContainEqual({ envId: 'local', processId: line.processId });
    await waitFor(() => outputText(eventsOf(h, again.processId)).includes('in /tmp'), 'restarted output');
    await waitFor(
      async () =>
        (await h.invoke('processes.list', { envId: 'local' })).find((p) => p.processId === again.processId)
          ?.state === 'exited',
      'restarted exited',
    );
    await h.invoke('processes.forget', { envId: 'local', processId: again.processId });
    expect(
      (await h.invoke('processes.list', { envId: 'local' })).some((p) => p.processId === again.processId),
    ).toBe(false);
    expect(h.eventsNamed('processes.removed')).toContainEqual({ envId: 'local', processId: again.processId });
  });

  it('reports a process that cannot start as failed, with the reason', async () => {
    const view = await h.invoke('processes.start', {
      envId: 'local',
      argv: ['/no/such/program'],
      tty: false,
    });
    expect(view.state).toBe('failed');
    expect(view.failure).toContain('/no/such/program');
  });

  it('replays after a renderer reload without duplicates, then continues live', async () => {
    const view = await h.invoke('processes.start', {
      envId: 'local',
      // Half the lines, then wait for input so the rest is certainly live after the replay.
      argv: ['sh', '-c', 'seq -f line-%g 1 20; read go; seq -f line-%g 21 40'],
      tty: false,
    });
    await waitFor(() => outputText(eventsOf(h, view.processId)).includes('line-20\n'), 'first lines');
    const reloaded: Array<{ name: string; payload: unknown }> = [];
    const feed = h.service.attach((name, payload) => reloaded.push({ name, payload }));
    try {
      const liveEvents = () =>
        reloaded
          .filter((e) => e.name === 'processes.events')
          .flatMap((e) =>
            (e.payload as ProcessEventBatch[])
              .filter((b) => b.processId === view.processId)
              .flatMap((b) => b.events),
          );
      const fresh = await dispatch(h.service.handlers, feed, 'processes.replay', {
        envId: 'local',
        processId: view.processId,
        afterSeq: 0,
      });
      expect(fresh.ok).toBe(true);
      const replayed = (fresh as { output: { events: ProcessEventView[]; lastSeq: number } }).output;
      expect(outputText(replayed.events)).toContain('line-20\n');
      await h.invoke('processes.write', { envId: 'local', processId: view.processId, data: 'go\n' });
      await waitFor(() => liveEvents().some((e) => e.kind === 'closed'), 'live after replay', 30_000);
      const all = [...replayed.events, ...liveEvents()];
      expectStrictlyAscending(all);
      expect(lastSeqOf(liveEvents()[0]!)).toBe(replayed.lastSeq + 1);
      expect(outputText(all)).toBe(Array.from({ length: 40 }, (_, i) => `line-${i + 1}\n`).join(''));
    } finally {
      h.service.detach(feed);
    }
  });

  it('replays with how far some terminal has shown the output: only acks of parsed output move it', async () => {
    const view = await h.invoke('processes.start', {
      envId: 'local',
      argv: ['sh', '-c', 'printf first; read go; printf second; read end'],
      tty: false,
    });
    const { processId } = view;
    const key = { envId: 'local', processId };
    await waitFor(() => outputText(eventsOf(h, processId)) === 'first', 'first output');
    const firstSeq = lastSeqOf(eventsOf(h, processId).at(-1)!);
    const replay = async (feed: RendererFeed) => {
      const result = await dispatch(h.service.handlers, feed, 'processes.replay', { ...key, afterSeq: 0 });
      if (!result.ok) throw new Error(result.error.message);
      return result.output as { lastSeq: number; shownThroughSeq: number };
    };
    const other = h.service.attach(() => undefined);
    try {
      // No terminal has parsed anything yet: a new pane's first replay is fresh output.
      expect((await replay(other)).shownThroughSeq).toBe(0);
      // A renderer without a pane for the process acks what it got at once, without showing it.
      await h.invoke('processes.ack', { ...key, deltaBytes: 5 });
      expect((await replay(other)).shownThroughSeq).toBe(0);
      // A terminal parsed it: every renderer's replay now marks it as shown.
      await h.invoke('processes.ack', { ...key, deltaBytes: 0, shownThroughSeq: firstSeq });
      expect((await replay(other)).shownThroughSeq).toBe(firstSeq);
      await h.invoke('processes.write', { ...key, data: 'go\n' });
      await waitFor(() => outputText(eventsOf(h, processId)) === 'firstsecond', 'second output');
      // Output after it is fresh until a terminal reports it parsed; the point never moves back,
      // nor past what the app has received.
      const later = await replay(other);
      expect(later.lastSeq).toBeGreaterThan(firstSeq);
      expect(later.shownThroughSeq).toBe(firstSeq);
      await dispatch(h.service.handlers, other, 'processes.ack', {
        ...key,
        deltaBytes: 0,
        shownThroughSeq: 1,
      });
      expect((await replay(other)).shownThroughSeq).toBe(firstSeq);
      await h.invoke('processes.ack', { ...key, deltaBytes: 0, shownThroughSeq: 1_000_000 });
      expect((await replay(h.feed)).shownThroughSeq).toBe(later.lastSeq);
    } finally {
      h.service.detach(other);
      await h.invoke('processes.write', { ...key, data: 'end\n' });
    }
  });

  it('holds flow control under a flood: unacked bytes stay bounded and an interrupt still ends it', async () => {
    const view = await h.invoke('processes.start', { envId: 'local', argv: ['yes', 'flood'], tty: true });
    const { processId } = view;
    await waitFor(
      () => h.feed.unackedBytes('local', processId) >= SERVER_OUTPUT_WINDOW_BYTES / 2,
      'flood flowing',
    );
    // Give the flood time to overrun any bound that does not hold.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(h.feed.unackedBytes('local', processId)).toBeLessThanOrEqual(RENDERER_WINDOW_BYTES + CHUNK_SLACK);
    // Nothing was acknowledged, so the server may have sent one window in total: what the renderer
    // holds plus what the app buffers stays within it.
    const env = (await h.invoke('environments.list', {}))[0]!;
    const received = h.feed.unackedBytes('local', processId) + env.bufferedBytes;
    expect(received).toBeLessThanOrEqual(SERVER_OUTPUT_WINDOW_BYTES + CHUNK_SLACK);
    // Input still works while output is held back: Ctrl-C reaches the blocked process.
    await h.invoke('processes.signal', { envId: 'local', processId, signal: 'interrupt' });
    await waitFor(() => !pidAlive(view.pid!), 'yes killed by the interrupt', 30_000);
    await ackAll(h, h.feed, 'local', processId, () =>
      eventsOf(h, processId).some((e) => e.kind === 'closed'),
    );
    expectStrictlyAscending(eventsOf(h, processId));
  });
});

describe('processes and files on codex exec-server (no server-side flow control)', () => {
  // Fresh per test, server included: the buffer bound is environment-wide, and codex keeps every
  // process (and the files test's folder) of a shared session around.
  let codex: StartedServer;
  let h: Harness;
  let envId: string;
  beforeEach(async () => {
    codex = await startServer('codex', 'ws');
    h = await createHarness({ autoConnect: false });
    envId = (
      await h.invoke('environments.add', {
        name: 'Codex',
        color: '#10a37f',
        settings: { kind: 'ws', url: codex.url! },
      })
    ).id;
    await connected(h, envId);
  });
  afterEach(async () => {
    await h?.close();
    await codex?.stop();
  });

  it('streams in order, writes input, interrupts, and knows resize is unavailable', async () => {
    const cat = await h.invoke('processes.start', { envId, argv: ['cat'], tty: false });
    expect(cat.resizable).toBe(false);
    await h.invoke('processes.write', { envId, processId: cat.processId, data: 'hello codex\n' });
    await waitFor(() => outputText(eventsOf(h, cat.processId)).includes('hello codex'), 'cat echo');
    expect(
      await h.invoke('processes.resize', { envId, processId: cat.processId, cols: 80, rows: 24 }),
    ).toEqual({ applied: false });
    await h.invoke('processes.signal', { envId, processId: cat.processId, signal: 'terminate' });
    await waitFor(
      async () =>
        (await h.invoke('processes.list', { envId })).find((p) => p.processId === cat.processId)?.state ===
        'exited',
      'cat ended',
    );
    await expect(
      h.invoke('processes.signal', { envId, processId: cat.processId, signal: 'hangup' }),
    ).rejects.toMatchObject({ code: 'conflict' });

    const seq = await h.invoke('processes.start', { envId, argv: ['seq', '1', '5000'], tty: false });
    await waitFor(() => eventsOf(h, seq.processId).some((e) => e.kind === 'closed'), 'seq closed');
    expectStrictlyAscending(eventsOf(h, seq.processId));
    expect(outputText(eventsOf(h, seq.processId))).toBe(
      Array.from({ length: 5000 }, (_, i) => `${i + 1}\n`).join(''),
    );
  });

  it('buffers within its bound when the renderer is behind, then delivers an explicit gap', async () => {
    const total = PROCESS_LOG_LIMIT_BYTES + 8 * 1_048_576;
    const view = await h.invoke('processes.start', {
      envId,
      argv: ['head', '-c', String(total), '/dev/zero'],
      tty: false,
    });
    const buffered = async () =>
      (await h.invoke('environments.list', {})).find((e) => e.id === envId)!.bufferedBytes;
    // The app's buffer fills up to its bound (the output exceeds it) and never beyond.
    await waitFor(
      async () => (await buffered()) >= PROCESS_LOG_LIMIT_BYTES - CHUNK_SLACK,
      'buffer full',
      120_000,
    );
    expect(await buffered()).toBeLessThanOrEqual(PROCESS_LOG_LIMIT_BYTES);
    expect(h.feed.unackedBytes(envId, view.processId)).toBeLessThanOrEqual(
      RENDERER_WINDOW_BYTES + CHUNK_SLACK,
    );
    await ackAll(h, h.feed, envId, view.processId, () =>
      eventsOf(h, view.processId).some((e) => e.kind === 'closed'),
    );
    const events = eventsOf(h, view.processId);
    expectStrictlyAscending(events);
    const gap = events.find((e) => e.kind === 'gap');
    expect(gap).toBeDefined();
    const delivered = events.reduce((sum, e) => sum + (e.kind === 'output' ? e.data.byteLength : 0), 0);
    expect(delivered).toBeLessThan(total);
    expect(delivered).toBeGreaterThanOrEqual(PROCESS_LOG_LIMIT_BYTES - CHUNK_SLACK);

    // A renderer reloaded now replays the app's log, which overflowed: first one gap for seq 1 up
    // to the first seq still kept, then exactly the kept tail the live renderer also received.
    const reloaded = h.service.attach(() => undefined);
    try {
      const result = await dispatch(h.service.handlers, reloaded, 'processes.replay', {
        envId,
        processId: view.processId,
        afterSeq: 0,
      });
      if (!result.ok) throw new Error(result.error.message);
      const { events: replayed, lastSeq } = result.output as { events: ProcessEventView[]; lastSeq: number };
      const [lost, ...tail] = replayed;
      expect(lost).toMatchObject({ kind: 'gap', fromSeq: 1 });
      const lostThrough = (lost as Extract<ProcessEventView, { kind: 'gap' }>).toSeq;
      expect(lastSeqOf(tail[0]!)).toBe(lostThrough + 1);
      // Compared as base64: a deep equality walks megabytes of bytes one element at a time.
      expect(withBase64(tail)).toEqual(withBase64(events.filter((e) => lastSeqOf(e) > lostThrough)));
      expect(lastSeq).toBe(lastSeqOf(events.at(-1)!));
      const kept = tail.reduce((sum, e) => sum + (e.kind === 'output' ? e.data.byteLength : 0), 0);
      expect(kept).toBeLessThanOrEqual(PROCESS_LOG_LIMIT_BYTES);
      expect(kept).toBeGreaterThanOrEqual(PROCESS_LOG_LIMIT_BYTES - CHUNK_SLACK);
    } finally {
      h.service.detach(reloaded);
    }
  });

  it('lists, previews and renames files', async () => {
    const dir = `${codex.home}/files-test`;
    await h.invoke('files.mkdir', { envId, path: dir });
    await h.invoke('processes.start', {
      envId,
      shellLine: `printf 'hello' > ${dir}/b.txt && mkdir ${dir}/a-dir && printf x > ${dir}/.hidden && ln -s b.txt ${dir}/c-link`,
      tty: false,
    });
    await waitFor(
      async () => (await h.invoke('files.list', { envId, path: dir, showHidden: true })).entries.length === 4,
      'files created',
    );
    const listing = await h.invoke('files.list', { envId, path: dir, showHidden: false });
    expect(listing.entries.map((e) => [e.name, e.kind, e.size, e.link ?? false])).toEqual([
      ['a-dir', 'directory', null, false],
      ['b.txt', 'file', 5, false],
      // A link shows its target's kind and size, and says it is a link.
      ['c-link', 'file', 5, true],
    ]);
    // The dot-file the toggle keeps out is counted, so the view can say it is there.
    expect(listing.hiddenCount).toBe(1);
    expect(await h.invoke('files.preview', { envId, path: `${dir}/b.txt` })).toEqual({
      kind: 'text',
      text: 'hello',
      truncated: false,
      size: 5,
    });
    await h.invoke('files.rename', { envId, from: `${dir}/b.txt`, to: `${dir}/c.txt` });
    expect((await h.invoke('files.stat', { envId, path: `${dir}/c.txt` })).size).toBe(5);
    await expect(h.invoke('files.stat', { envId, path: `${dir}/b.txt` })).rejects.toMatchObject({
      code: 'notFound',
    });
    await h.invoke('files.delete', { envId, path: dir });
    await expect(h.invoke('files.list', { envId, path: dir, showHidden: true })).rejects.toMatchObject({
      code: 'notFound',
    });
  });
});
