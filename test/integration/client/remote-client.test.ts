// RemoteExecServerClient against real servers (OpenAI's codex and Tether's), over WebSocket through
// a fault-injection proxy: handshake, ordered byte-exact output, one shared reconnect, resume with
// output produced meanwhile, exactly-once writes, gap events, isolation between processes, liveness
// and the terminal errors.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import { isClientError } from '../../../electron/client/client-error';
import { MAX_PENDING_CALLS } from '../../../electron/client/constants';
import { startServer, type ServerImpl, type StartedServer } from '../../support/exec-servers';
import { startProxiedServer } from '../../support/proxied-server';
import { accountForGap } from '../../support/gap-accounting';
import { readRetainedOutput } from '../../support/retained-output';
import {
  collect,
  coveredSeq,
  numberedLines,
  readFileIfAny,
  untilFile,
  waitFor,
  outputProducedWhileCut,
  ALL_TICKS,
} from './helpers';

describe.each<ServerImpl>(['codex', 'tether'])('RemoteExecServerClient against %s (ws)', (impl) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setup(extraArgs: string[] = []) {
    const { server, proxy, stop } = await startProxiedServer(impl, { serverArgs: extraArgs });
    cleanups.push(stop);
    const client = new RemoteExecServerClient({ transport: server.transportSpec(proxy.url()) });
    cleanups.push(() => client.close());
    return { server, proxy, client };
  }

  it('handshakes lazily and delivers output in order, byte-exact', async () => {
    const { client, server } = await setup();
    expect(client.state.kind).toBe('idle');
    await client.connect();
    expect(client.state.kind).toBe('connected');
    expect(client.environmentInfo?.cwd).toBe(`file://${server.home}`);
    const handle = await client.startProcess({
      argv: ['/bin/sh', '-c', 'seq 1 20000; echo to-stderr >&2; exit 4'],
      cwd: server.home,
      tty: false,
    });
    const out = collect(handle);
    await waitFor('closed', () => out.closed());
    const expected = Array.from({ length: 20000 }, (_, i) => `${i + 1}\n`).join('');
    const streamText = (stream: string): string =>
      Buffer.concat(
        out.events.flatMap((e) => (e.kind === 'output' && e.stream === stream ? [Buffer.from(e.data)] : [])),
      ).toString();
    expect(streamText('stdout')).toBe(expected);
    expect(streamText('stderr')).toBe('to-stderr\n');
    expect(out.exitCode()).toBe(4);
    expect(out.inOrder()).toBe(true);
    expect(out.gaps()).toHaveLength(0);
  });

  it('shares one reconnect among many concurrent callers', async () => {
    const { client, proxy, server } = await setup();
    await client.connect();
    const sessionId = client.state.kind === 'connected' ? client.state.sessionId : '';
    const before = proxy.stats().connections;
    proxy.refuseNew(true);
    proxy.cutAll();
    await waitFor('reconnecting', () => client.state.kind === 'reconnecting');
    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? client.fs.readDirectory(server.home).then(() => 'ok')
        : client
            .startProcess({ argv: ['/bin/echo', String(i)], cwd: server.home, tty: false })
            .then(() => 'ok'),
    );
    await waitFor('a few refused attempts', () => proxy.stats().refused >= 3);
    proxy.refuseNew(false);
    expect(await Promise.all(calls)).toEqual(Array(20).fill('ok'));
    expect(proxy.stats().connections - before).toBe(1);
    expect(client.state).toMatchObject({ kind: 'connected', sessionId });
    expect(client.health().reconnectCount).toBe(1);
  });

  it('resumes after the socket is destroyed and recovers output produced meanwhile', async () => {
    const { client, proxy, server } = await setup();
    const out = await outputProducedWhileCut(client, proxy, server.home);
    expect(out.text()).toBe(ALL_TICKS);
    expect(out.inOrder()).toBe(true);
    expect(out.gaps()).toHaveLength(0);
    expect(out.exitCode()).toBe(0);
    expect(client.health().reconnectCount).toBe(1);
  });

  it('delivers a write exactly once when its answer is lost in a reconnect', async () => {
    const { client, proxy, server } = await setup();
    const received = path.join(server.home, 'received');
    // tee records what reached the process, independently of the (delayed) echo.
    const tee = await client.startProcess({
      argv: ['/usr/bin/tee', received],
      cwd: server.home,
      tty: false,
      pipeStdin: true,
    });
    const out = collect(tee);
    // The request reaches the server at once, its answer is held back and then cut off.
    proxy.setLatency(5_000, 'downstream');
    let answered = false;
    const write = tee.write('once\n').finally(() => (answered = true));
    await waitFor('the write to reach the process', () => readFileIfAny(received) === 'once\n');
    expect(answered, 'the answer must still be in flight when the link is cut').toBe(false);
    expect(proxy.cutAll()).toBe(1);
    proxy.restore();
    expect(await write).toBe('accepted');
    expect(await tee.write('end\n')).toBe('accepted');
    await waitFor('echo of the last write', () => out.text().endsWith('end\n'));
    await tee.terminate();
    await waitFor('closed', () => out.closed());
    // All output is known now: a replayed write would show up twice, in the file and the echo.
    expect(readFileSync(received, 'utf8')).toBe('once\nend\n');
    expect(out.text()).toBe('once\nend\n');
    expect(out.inOrder()).toBe(true);
  });

  it('reports output the server no longer retains as a gap of exactly the lost seqs and carries on', async () => {
    const small = impl === 'tether';
    const { client, proxy, server } = await setup(small ? ['--retained-output-bytes', '4096'] : []);
    await client.connect();
    const sessionId = client.state.kind === 'connected' ? client.state.sessionId : '';
    /** 8-byte numbered lines: 200 kB, or 3 MB against codex's fixed 1 MiB retention. */
    const lines = small ? 25_000 : 375_000;
    const handle = await client.startProcess({
      argv: [
        '/bin/sh',
        '-c',
        `echo start; ${untilFile('go')}; seq -f '%07g' 1 ${lines}; touch produced; ${untilFile('go2')}; echo done`,
      ],
      cwd: server.home,
      tty: false,
    });
    const out = collect(handle);
    await waitFor('start', () => out.text() === 'start\n');
    expect(proxy.cutAll()).toBe(1);
    proxy.refuseNew(true);
    writeFileSync(path.join(server.home, 'go'), '');
    // What the server still holds once every numbered line is out, read straight from it.
    await waitFor('the numbered lines to be written', () => existsSync(path.join(server.home, 'produced')));
    const retained = await readRetainedOutput(server, sessionId, handle.processId, 'now');
    proxy.refuseNew(false);
    await waitFor(
      'the gap and the retained tail',
      () => coveredSeq(out.events) >= retained.nextSeq - 1,
      45_000,
    );
    // Output made after the gap still flows live.
    writeFileSync(path.join(server.home, 'go2'), '');
    await waitFor('closed', () => out.closed(), 45_000);
    const produced = Buffer.from(`start\n${numberedLines(lines)}done\n`);
    const account = accountForGap(out.events, retained, produced);
    expect(account.problems).toEqual([]);
    expect(account.gap?.fromSeq).toBe(2);
    expect(out.text().endsWith('\ndone\n')).toBe(true);
    expect(out.exitCode()).toBe(0);
    expect(out.failed()).toBeNull();
  });

  it("never lets a noisy process delay another process's events", async () => {
    const { client, server } = await setup();
    const noisy = await client.startProcess({
      argv: ['/usr/bin/yes', 'noise'],
      cwd: server.home,
      tty: false,
    });
    const noisyOut = collect(noisy);
    const cat = await client.startProcess({
      argv: ['/bin/cat'],
      cwd: server.home,
      tty: false,
      pipeStdin: true,
    });
    const catOut = collect(cat);
    await waitFor('noise flowing', () => noisyOut.events.length > 100);
    for (let i = 0; i < 5; i++) {
      await cat.write(`ping ${i}\n`);
      await waitFor(`echo ${i}`, () => catOut.text().includes(`ping ${i}\n`), 20_000);
    }
    expect(noisyOut.closed()).toBe(false);
    await noisy.terminate();
    await cat.terminate();
    await waitFor('both closed', () => noisyOut.closed() && catOut.closed(), 30_000);
    expect(noisyOut.inOrder()).toBe(true);
  });

  it('declares a silent link dead within seconds and resumes once it flows again', async () => {
    const { client, proxy, server } = await setup();
    const handle = await client.startProcess({
      argv: ['/bin/sh', '-c', 'i=0; while [ $i -lt 100 ]; do i=$((i+1)); echo "n $i"; sleep 0.05; done'],
      cwd: server.home,
      tty: false,
    });
    const out = collect(handle);
    await waitFor('output', () => out.text().includes('n 2\n'));
    proxy.stall();
    await waitFor('stalled flag', () => client.health().stalled, 15_000);
    await waitFor('reconnecting', () => client.state.kind === 'reconnecting', 15_000);
    proxy.restore();
    proxy.cutAll();
    await waitFor('closed', () => out.closed(), 45_000);
    expect(out.text()).toBe(Array.from({ length: 100 }, (_, i) => `n ${i + 1}\n`).join(''));
    expect(out.inOrder()).toBe(true);
  });

  it('queues calls beyond the pending-call cap and answers every one of them', async () => {
    const { client, server } = await setup();
    await client.connect();
    const results = await Promise.allSettled(
      Array.from({ length: MAX_PENDING_CALLS * 4 }, () => client.fs.getMetadata(server.home)),
    );
    const failures = results.filter((r) => r.status === 'rejected');
    expect(failures).toEqual([]);
    expect(await client.fs.getMetadata(server.home)).toMatchObject({ isDirectory: true });
  });

  it('fails with code auth on HTTP 401', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-token-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const tokenFile = path.join(dir, 'token');
    writeFileSync(tokenFile, 'right-token\n');
    const server = await startServer(impl, 'ws', {
      extraArgs: ['--ws-auth', 'capability-token', '--ws-token-file', tokenFile],
    });
    cleanups.push(() => server.stop());
    const wrong = new RemoteExecServerClient({ transport: { kind: 'ws', url: server.url!, token: 'wrong' } });
    cleanups.push(() => wrong.close());
    const error = await wrong.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(isClientError(error, 'auth')).toBe(true);
    expect(wrong.state).toMatchObject({ kind: 'failed', code: 'auth' });
    const right = new RemoteExecServerClient({ transport: { kind: 'ws', url: server.url!, tokenFile } });
    cleanups.push(() => right.close());
    await right.connect();
    expect(right.state.kind).toBe('connected');
  });

  it('fails with code unknownSession when the server restarted, and can start afresh', async () => {
    const first = await startServer(impl, 'ws');
    const url = first.url!;
    const restarted: { server?: StartedServer } = {};
    cleanups.push(async () => {
      await first.stop();
      await restarted.server?.stop();
    });
    const client = new RemoteExecServerClient({ transport: first.transportSpec() });
    cleanups.push(() => client.close());
    const handle = await client.startProcess({ argv: ['/bin/sleep', '5'], cwd: first.home, tty: false });
    const out = collect(handle);
    await first.stop();
    await waitFor('reconnecting', () => client.state.kind === 'reconnecting');
    // The same token: a restarted server, not a different one.
    const second = await startServer(impl, 'ws', { listen: url, token: first.token });
    restarted.server = second;
    await waitFor('failed', () => client.state.kind === 'failed', 30_000);
    expect(client.state).toMatchObject({ kind: 'failed', code: 'unknownSession' });
    expect(out.failed()).toMatch(/no longer knows this session/);
    await expect(client.fs.readDirectory('/')).rejects.toMatchObject({ code: 'unknownSession' });
    client.reconnectNow();
    await waitFor('connected afresh', () => client.state.kind === 'connected', 30_000);
    // The fresh session really serves: it lists the new server's home and runs a process.
    writeFileSync(path.join(second.home, 'marker'), '');
    expect((await client.fs.readDirectory(second.home)).map((e) => e.fileName)).toContain('marker');
    const fresh = collect(
      await client.startProcess({ argv: ['/bin/echo', 'fresh'], cwd: second.home, tty: false }),
    );
    await waitFor('the fresh process to close', () => fresh.closed());
    expect(fresh.text()).toBe('fresh\n');
  });
});
