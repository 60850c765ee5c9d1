// A client that starts by resuming a given session (what an app restart does), against codex's and
// Tether's servers: it follows a process an earlier client started, re-reading its retained output
// exactly once from seq 1 before live output, and writes to it though an earlier client wrote the
// same bytes; it waits for a server that is not reachable yet; and it fails with unknownSession
// once the session has expired.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteExecServerClient } from '../../../electron/client/link/remote-client';
import type { ServerImpl } from '../../support/exec-servers';
import { startProxiedServer } from '../../support/proxied-server';
import { pidAlive } from '../../support/pids';
import { collect, numberedLines, untilFile, waitFor } from './helpers';

describe.each<ServerImpl>(['codex', 'tether'])('a client resuming a given session against %s', (impl) => {
  // Cases that need a Tether extension are only defined for Tether (not reported as skipped for codex).
  const itOnTether = impl === 'tether' ? it : () => undefined;
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setup(extraArgs: string[] = []) {
    const { server, proxy, stop } = await startProxiedServer(impl, { serverArgs: extraArgs });
    cleanups.push(stop);
    const newClient = (resumeSessionId?: string) => {
      const client = new RemoteExecServerClient({
        transport: server.transportSpec(proxy.url()),
        ...(resumeSessionId ? { resumeSessionId } : {}),
      });
      cleanups.push(() => client.close());
      return client;
    };
    return { server, proxy, newClient };
  }

  /** A first client starts a process printing lines 1–200, waiting for `go`, then 201–300; then quits. */
  async function startAndQuit(setupResult: Awaited<ReturnType<typeof setup>>) {
    const { server, newClient } = setupResult;
    const first = newClient();
    const handle = await first.startProcess({
      argv: ['/bin/sh', '-c', `seq -f '%07g' 1 200; ${untilFile('go')}; seq -f '%07g' 201 300; exit 7`],
      cwd: server.home,
      tty: false,
    });
    const seen = collect(handle);
    await waitFor('the first 200 lines', () => seen.text() === numberedLines(200));
    const sessionId = first.currentSessionId!;
    await first.close();
    return { sessionId, processId: handle.processId, pid: handle.pid };
  }

  it('follows a process of the resumed session: retained output once from seq 1, then live', async () => {
    const rig = await setup();
    const { sessionId, processId } = await startAndQuit(rig);
    const second = rig.newClient(sessionId);
    const out = collect(await second.attachProcess(processId));
    expect(second.currentSessionId).toBe(sessionId);
    await waitFor('the retained lines', () => out.text() === numberedLines(200));
    writeFileSync(path.join(rig.server.home, 'go'), '');
    await waitFor('closed', () => out.closed());
    expect(out.text()).toBe(numberedLines(300));
    expect(out.gaps()).toEqual([]);
    expect(out.inOrder()).toBe(true);
    expect(out.exitCode()).toBe(7);
  });

  it("writes the attached process's input, though an earlier client wrote the same bytes to it", async () => {
    const rig = await setup();
    const first = rig.newClient();
    const handle = await first.startProcess({
      argv: ['/bin/cat'],
      cwd: rig.server.home,
      tty: false,
      pipeStdin: true,
    });
    const seen = collect(handle);
    const typed = ['ls\n', 'pwd\n', '\x03'];
    // One write each, in turn: the first client uses as many write ids as there are pieces.
    for (const piece of typed) expect(await handle.write(piece)).toBe('accepted');
    await waitFor('the first echo', () => seen.text() === typed.join(''));
    const sessionId = first.currentSessionId!;
    await first.close();

    // A restarted app types the same keys: each must reach the process again, none answered from
    // the server's memory of the first client's writes.
    const second = rig.newClient(sessionId);
    const attached = await second.attachProcess(handle.processId);
    const out = collect(attached);
    for (const piece of typed) expect(await attached.write(piece)).toBe('accepted');
    await waitFor('the second echo', () => out.text() === typed.join('').repeat(2));
    await attached.terminate();
  });

  it('keeps trying while the server is unreachable at start, then resumes the same session', async () => {
    const rig = await setup();
    const { sessionId, processId } = await startAndQuit(rig);
    rig.proxy.refuseNew(true);
    const second = rig.newClient(sessionId);
    const attached = second.attachProcess(processId);
    await waitFor('reconnecting', () => second.state.kind === 'reconnecting');
    rig.proxy.refuseNew(false);
    const out = collect(await attached);
    expect(second.state).toMatchObject({ kind: 'connected', sessionId });
    await waitFor('the retained lines', () => out.text() === numberedLines(200));
  });

  itOnTether(
    'keeps a flow-controlled process flowing after the attach, though its early output was evicted',
    async () => {
      const rig = await setup();
      const first = rig.newClient();
      const lines = 250_000;
      const handle = await first.startProcess({
        argv: ['/bin/sh', '-c', `seq -f '%07g' 1 ${lines}`],
        cwd: rig.server.home,
        tty: false,
        outputWindowBytes: 65_536,
      });
      const seen = collect(handle);
      let consumed = 0;
      handle.subscribe((e) => {
        if (e.kind === 'output') handle.acknowledge((consumed += e.data.byteLength));
      });
      // Quit mid-flood: the server's window fills and it stops reading until someone acknowledges.
      await waitFor('the first megabyte', () => consumed > 1_048_576);
      const sessionId = first.currentSessionId!;
      await first.close();
      const second = rig.newClient(sessionId);
      const attached = await second.attachProcess(handle.processId, { flowControl: true });
      const out = collect(attached);
      let reread = 0;
      attached.subscribe((e) => {
        if (e.kind === 'output') attached.acknowledge((reread += e.data.byteLength));
      });
      await waitFor('closed', () => out.closed(), 45_000);
      expect(seen.text().length).toBeGreaterThan(0);
      // The early output was evicted (a gap from seq 1), the rest arrived up to the last line.
      expect(out.gaps()[0]?.fromSeq).toBe(1);
      expect(out.text().endsWith(`${String(lines).padStart(7, '0')}\n`)).toBe(true);
      expect(out.inOrder()).toBe(true);
    },
  );

  itOnTether('fails with unknownSession when the session expired meanwhile', async () => {
    const rig = await setup(['--session-ttl-ms', '300']);
    const { sessionId, processId, pid } = await startAndQuit(rig);
    // The server kills a session's processes when it drops the session.
    await waitFor('the session to expire', () => pid !== null && !pidAlive(pid));
    const second = rig.newClient(sessionId);
    await expect(second.attachProcess(processId)).rejects.toMatchObject({ code: 'unknownSession' });
    expect(second.state).toMatchObject({ kind: 'failed', code: 'unknownSession' });
  });
});
