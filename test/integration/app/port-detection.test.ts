// Port detection from the host's listening sockets, in the AppService against real servers: a
// server run from a shell in a real pty (Tether's ws server) is found by its socket, matched to the
// shell Tether started, forwarded by itself and dropped when it exits; a listener Tether did not
// start (this test's own) is listed with its process but not forwarded; a process opening 50
// listeners raises one summarised notice; against codex (no ports/listening) ports are listed with
// an unknown process and none is forwarded by itself.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ForwardView } from '../../../shared/ipc';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { httpGet, portOf, tcpServer } from '../../support/forward-peers';
import { NOTICE_GAP_MS } from '../../../electron/app/forwarding/detection-notices';
import { createHarness, outputOf, waitFor, type Harness } from './app-harness';

let tether: StartedServer;
let codex: StartedServer;
let h: Harness;
/** A listener of this test's own process: on the host (this machine), but not Tether's. */
let foreign: net.Server;

beforeAll(async () => {
  [tether, codex] = await Promise.all([startServer('tether', 'ws'), startServer('codex', 'ws')]);
  h = await createHarness({ autoConnect: false });
  foreign = await tcpServer('127.0.0.1', (socket) => socket.end());
});
afterAll(async () => {
  foreign.close();
  await h.close();
  await Promise.all([tether.stop(), codex.stop()]);
});

// Listens on argv[2] ports (any address; beyond one, half of them 100 ms after the others, so a scan
// may find the first half only) and says which, but prints no localhost URL: only the sockets can
// tell. Each serves a page.
const SERVER = `
const http = require('node:http');
const count = Number(process.argv[2]);
const open = (n) => Array.from({ length: n }, () =>
  http.createServer((req, res) => res.end('socket page')).listen(0));
const listening = (s) => new Promise((r) => (s.listening ? r() : s.once('listening', r)));
const first = open(Math.ceil(count / 2));
setTimeout(() => {
  const servers = [...first, ...open(count - first.length)];
  Promise.all(servers.map(listening)).then(() =>
    console.log('up ' + servers.map((s) => s.address().port).join(' ') + ' .'));
}, count > 1 ? 100 : 0);
`;

async function addEnvironment(server: StartedServer, name: string): Promise<string> {
  const envId = (
    await h.invoke('environments.add', {
      name,
      color: '#336699',
      settings: { kind: 'ws', url: server.url! },
      ...(server.token ? { token: server.token } : {}),
    })
  ).id;
  await waitFor(
    async () =>
      (await h.invoke('environments.list', {})).find((e) => e.id === envId)?.link.kind === 'connected',
    `${name} connected`,
  );
  return envId;
}

/** Runs the server script with `count` listeners from the shell; resolves with their ports. */
async function runServer(envId: string, shell: string, script: string, count: number): Promise<number[]> {
  const before = outputOf(h, shell).length;
  await h.invoke('processes.write', {
    envId,
    processId: shell,
    data: `${process.execPath} ${script} ${count}\n`,
  });
  let ports: number[] = [];
  await waitFor(() => {
    const match = /up ([\d ]+) \./.exec(outputOf(h, shell).slice(before));
    ports = match ? match[1]!.trim().split(' ').map(Number) : [];
    return ports.length === count;
  }, 'the server up');
  return ports;
}

const autoForwards = async (envId: string): Promise<ForwardView[]> =>
  (await h.invoke('forwards.list', { envId })).filter((f) => f.auto);

describe('ports detected from listening sockets', () => {
  it('forwards what a server started in a pane listens on, lists the rest, and drops it on exit', async () => {
    const envId = await addEnvironment(tether, 'Tether host');
    const script = path.join(tether.home, 'server.js');
    writeFileSync(script, SERVER);
    const shell = await h.invoke('processes.start', {
      envId,
      argv: ['/bin/sh'],
      cwd: tether.home,
      tty: true,
    });
    expect(shell.pid).toBeGreaterThan(0);

    const [port] = await runServer(envId, shell.processId, script, 1);
    const upAt = Date.now();
    let forward: ForwardView | undefined;
    await waitFor(
      async () => (forward = (await autoForwards(envId)).find((f) => f.port === port)) !== undefined,
      'the port forwarded',
      10_000,
    );
    console.log(`port detection: forwarded ${Date.now() - upAt} ms after the server said it was up`);
    // A descendant of the shell Tether started (sh → node), matched by its socket.
    expect(forward).toMatchObject({ foundBy: 'listeningSocket', state: 'forwarding', label: 'node' });
    expect(forward!.process).toMatchObject({ name: 'node' });
    expect(forward!.process!.pid).not.toBe(shell.pid);
    expect(await httpGet(forward!.boundPort!)).toBe('socket page');
    await waitFor(() => h.eventsNamed('forwards.detected').length === 1, 'the notice');
    expect(h.eventsNamed('forwards.detected')[0]!.forwards.map((f) => f.port)).toEqual([port]);

    // This test's own listener: listed with its process, not forwarded.
    const listed = await h.invoke('forwards.listening', { envId });
    expect(listed.find((l) => l.port === port)).toMatchObject({
      startedByTether: true,
      process: { name: 'node' },
    });
    expect(listed.find((l) => l.port === portOf(foreign))).toEqual({
      port: portOf(foreign),
      process: { pid: process.pid, name: expect.any(String) as string },
      startedByTether: false,
    });
    expect((await h.invoke('forwards.list', { envId })).map((f) => f.port)).not.toContain(portOf(foreign));

    // ^C ends the server, not the shell: the forward goes once its port stops listening.
    await h.invoke('processes.write', { envId, processId: shell.processId, data: '\x03' });
    await waitFor(async () => (await autoForwards(envId)).length === 0, 'the forward dropped', 10_000);

    // 50 listeners within 100 ms: all forwarded, one notice for them all (a scan that found some
    // is followed up before the notice goes).
    const notices = h.eventsNamed('forwards.detected').length;
    const many = await runServer(envId, shell.processId, script, 50);
    await waitFor(async () => (await autoForwards(envId)).length === 50, 'the 50 forwarded', 15_000);
    await waitFor(
      () => h.eventsNamed('forwards.detected').length > notices,
      'the notice',
      NOTICE_GAP_MS + 5_000,
    );
    const notice = h.eventsNamed('forwards.detected').at(-1)!;
    expect(notice.forwards.map((f) => f.port)).toEqual([...many].sort((a, b) => a - b));

    // The shell ends: every forward found through it goes at once.
    await h.invoke('processes.signal', { envId, processId: shell.processId, signal: 'kill' });
    await waitFor(async () => (await autoForwards(envId)).length === 0, 'the forwards dropped');
    expect(h.eventsNamed('forwards.detected')).toHaveLength(notices + 1);
  });

  it('against codex, lists the ports with an unknown process and forwards none by itself', async () => {
    const envId = await addEnvironment(codex, 'Codex host');
    const script = path.join(codex.home, 'server.js');
    writeFileSync(script, SERVER);
    const shell = await h.invoke('processes.start', { envId, argv: ['/bin/sh'], cwd: codex.home, tty: true });
    const [port] = await runServer(envId, shell.processId, script, 1);
    const listed = await h.invoke('forwards.listening', { envId });
    expect(listed.find((l) => l.port === port)).toEqual({ port, process: null, startedByTether: false });
    expect(listed.find((l) => l.port === portOf(foreign))).toEqual({
      port: portOf(foreign),
      process: null,
      startedByTether: false,
    });
    // forwards.listening acts on what it found as a poll does: nothing was forwarded.
    expect(await h.invoke('forwards.list', { envId })).toEqual([]);
    await h.invoke('processes.signal', { envId, processId: shell.processId, signal: 'kill' });
  });
});
