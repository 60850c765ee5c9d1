// Bytes stay bytes through the app in web mode: a real AppService (Local environment, Tether's stdio
// server) behind the real web host, read by the page's own bridge (createWebSocketBridge) over a
// WebSocket. Output with every byte value and UTF-8 cut between chunks arrives unchanged, live and
// replayed; typed bytes reach the process unchanged; and over the cap on all processes' retained
// output the oldest output of all goes first, replayed as a gap that says the app dropped it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ProcessEventBatch, ProcessEventView } from '../../../shared/ipc';
import {
  createWebSocketBridge,
  type WebSocketBridge,
  type WebSocketLike,
} from '../../../shared/ipc/web-bridge-client';
import { AppService } from '../../../electron/app/app-service';
import { remoteClientFactory } from '../../../electron/app/environments/client-factory';
import { FileSecretStore } from '../../../electron/app/persistence/file-secret-store';
import { localServerCommand } from '../../../electron/app/environments/local-server';
import { WebCredentials } from '../../../electron/web/web-credentials';
import { WebDownloads } from '../../../electron/web/web-downloads';
import { startWebHost, type WebHost } from '../../../electron/web/web-host';
import { REPO_ROOT } from '../../support/exec-servers';
import { waitFor } from '../../support/wait';

/** Small enough for two short processes to break it. */
const CAP_BYTES = 256 * 1024;
const EVERY_BYTE = Uint8Array.from({ length: 256 }, (_, i) => i);

let dir: string;
let service: AppService;
let host: WebHost;
let bridge: WebSocketBridge;
const live = new Map<string, ProcessEventView[]>();

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tether-web-bytes-'));
  const staticDir = path.join(dir, 'renderer');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Tether</title>');
  writeFileSync(path.join(dir, 'every-byte.bin'), EVERY_BYTE);
  const credentials = new WebCredentials();
  const downloads = new WebDownloads(credentials.scope);
  service = await AppService.create({
    dataDir: path.join(dir, 'data'),
    secrets: new FileSecretStore(path.join(dir, 'data', 'tokens.json')),
    createClient: remoteClientFactory(() => undefined),
    localServer: localServerCommand({ packageRoot: REPO_ROOT, execPath: process.execPath, electron: false }),
    host: { downloads, openExternal: async () => undefined },
    outputLogCapBytes: CAP_BYTES,
  });
  host = await startWebHost({ service, downloads, staticDir, host: '127.0.0.1', port: 0, credentials });
  bridge = createWebSocketBridge(
    `ws://127.0.0.1:${host.port}${credentials.scope}ipc`,
    (url) =>
      new WebSocket(url, {
        headers: { authorization: `Bearer ${credentials.token}` },
      }) as unknown as WebSocketLike,
  );
  bridge.on('processes.events', (batches: ProcessEventBatch[]) => {
    for (const batch of batches)
      live.set(batch.processId, [...(live.get(batch.processId) ?? []), ...batch.events]);
  });
  await waitFor(
    async () =>
      (await bridge.invoke('environments.list', {})).find((e) => e.id === 'local')?.link.kind === 'connected',
    'the Local environment connected',
  );
});
afterAll(async () => {
  bridge?.close();
  await host?.close();
  await service?.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

const outputOf = (events: ProcessEventView[]): Buffer =>
  Buffer.concat(events.flatMap((e) => (e.kind === 'output' ? [e.data] : [])));

/** Runs `script` under sh (no tty: no line discipline between the bytes and us) until it closes. */
async function run(script: string): Promise<{ processId: string; events: ProcessEventView[] }> {
  const view = await bridge.invoke('processes.start', {
    envId: 'local',
    argv: ['/bin/sh', '-c', script],
    cwd: dir,
    tty: false,
  });
  const events = await waitFor(() => {
    const seen = live.get(view.processId) ?? [];
    return seen.some((e) => e.kind === 'closed') ? seen : null;
  }, `${script} to close`);
  return { processId: view.processId, events };
}

describe('bytes across IPC in web mode', () => {
  it('delivers every byte value and UTF-8 split between chunks unchanged, live and replayed', async () => {
    // € is e2 82 ac: its first two bytes end one chunk, its last starts the next; ff fe are never UTF-8.
    const { processId, events } = await run(
      "cat every-byte.bin; sleep 0.3; printf '\\342\\202'; sleep 0.3; printf '\\254\\377\\376'",
    );
    const expected = Buffer.concat([EVERY_BYTE, Buffer.from([0xe2, 0x82, 0xac, 0xff, 0xfe])]);
    const outputs = events.filter((e) => e.kind === 'output');
    expect(outputs.length).toBeGreaterThanOrEqual(3);
    for (const e of outputs) expect(e.data).toBeInstanceOf(Uint8Array);
    expect(outputOf(events).equals(expected)).toBe(true);
    const replayed = await bridge.invoke('processes.replay', { envId: 'local', processId, afterSeq: 0 });
    expect(outputOf(replayed.events).equals(expected)).toBe(true);
  });

  it('writes typed bytes to the process unchanged', async () => {
    const view = await bridge.invoke('processes.start', {
      envId: 'local',
      argv: ['cat'],
      cwd: dir,
      tty: false,
    });
    await bridge.invoke('processes.write', { envId: 'local', processId: view.processId, data: EVERY_BYTE });
    await waitFor(() => outputOf(live.get(view.processId) ?? []).length >= EVERY_BYTE.length, 'the echo');
    expect(outputOf(live.get(view.processId) ?? []).equals(Buffer.from(EVERY_BYTE))).toBe(true);
    await bridge.invoke('processes.closeStdin', { envId: 'local', processId: view.processId });
  });

  it("drops the app's oldest output first over the cap on all processes, replayed as the app's gap", async () => {
    const older = await run('head -c 200000 /dev/zero');
    const newer = await run('head -c 200000 /dev/zero');
    expect(outputOf(older.events).length + outputOf(newer.events).length).toBe(400_000);
    const replay = (processId: string) =>
      bridge.invoke('processes.replay', { envId: 'local', processId, afterSeq: 0 });
    const olderReplay = await replay(older.processId);
    const newerReplay = await replay(newer.processId);
    // The older process gave way, from its first seq on; the newer one kept everything.
    expect(olderReplay.events[0]).toMatchObject({ kind: 'gap', fromSeq: 1, cause: 'app' });
    expect(newerReplay.events.some((e) => e.kind === 'gap')).toBe(false);
    expect(outputOf(newerReplay.events).length).toBe(200_000);
    const kept = outputOf(olderReplay.events).length + outputOf(newerReplay.events).length;
    expect(kept).toBeLessThanOrEqual(CAP_BYTES);
    // What is kept of the older one is its tail, exactly after the gap.
    const gap = olderReplay.events[0] as Extract<ProcessEventView, { kind: 'gap' }>;
    const after = olderReplay.events[1]!;
    expect(after.kind === 'gap' ? after.fromSeq : 'seq' in after ? after.seq : -1).toBe(gap.toSeq + 1);
  });
});
