// Quitting the app mid-upload leaves no staged file on the server: an upload of a new file to
// Tether's ws server, over a throttled link, is cut short by AppService.shutdown(); shutdown keeps the
// link up until the cancelled upload has removed its hidden staging file, then closes it.
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TransferView } from '../../../shared/ipc';
import { startServer, type StartedServer } from '../../support/exec-servers';
import { FaultProxy } from '../../support/fault-proxy';
import { createHarness, waitFor, type Harness } from './app-harness';

const CHUNK = 1_048_576;
/** Slow enough that the upload is still running when the app quits, fast enough to get going. */
const THROTTLE_BYTES_PER_S = 2 * 1_048_576;

describe('quitting during an upload (Tether ws server behind a throttled link)', () => {
  let server: StartedServer;
  let proxy: FaultProxy;
  let h: Harness;
  let envId: string;
  beforeEach(async () => {
    server = await startServer('tether', 'ws');
    proxy = await FaultProxy.forUrl(server.url!);
    h = await createHarness({ autoConnect: false });
    envId = (
      await h.invoke('environments.add', {
        name: 'Remote',
        color: '#336699',
        settings: { kind: 'ws', url: proxy.url() },
        token: server.token,
      })
    ).id;
    await waitFor(
      async () =>
        (await h.invoke('environments.list', {})).find((e) => e.id === envId)?.link.kind === 'connected',
      'remote connected',
    );
  });
  afterEach(async () => {
    await h?.close();
    await proxy?.close();
    await server?.stop();
  });

  const transfer = (id: string): TransferView | undefined =>
    h
      .eventsNamed('transfers.changed')
      .filter((t) => t.id === id)
      .at(-1);

  it('removes the staged file before the link closes', async () => {
    const remotePath = path.join(server.home, 'quit-mid-way.bin');
    const upload = (): string[] =>
      readdirSync(server.home).filter(
        (name) => name.startsWith('.quit-mid-way.bin.') || name === 'quit-mid-way.bin',
      );
    proxy.throttle(THROTTLE_BYTES_PER_S, 'upstream');
    const started = await h.invoke('transfers.startUpload', { envId, remotePath, totalBytes: 8 * CHUNK });
    // Three of eight chunks: the upload gets going, then waits for more (or has a block in flight).
    for (let offset = 0; offset < 3 * CHUNK; offset += CHUNK) {
      await h.invoke('transfers.uploadChunk', {
        id: started.id,
        offset,
        dataBase64: randomBytes(CHUNK).toString('base64'),
        last: false,
      });
    }
    await waitFor(() => (transfer(started.id)?.doneBytes ?? 0) >= CHUNK, 'the first block written');
    expect(upload()).toEqual([expect.stringContaining('.tether-upload-')]);

    await h.service.shutdown();
    expect(transfer(started.id)?.state).toBe('cancelled');
    expect(upload()).toEqual([]);
  });
});
