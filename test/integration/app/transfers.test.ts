// Transfers through the AppService and Tether's stdio server: a 24 MiB random file uploads in
// chunks and downloads back byte-exactly, with progress events; cancel and failures are reported.
// A new file appears under its name only once complete (replacing one: conflicts.test.ts). A
// download cancelled mid-way (ws server, throttled link) leaves no file, and the next one works.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransferView } from '../../../shared/ipc';
import { startLocalApp, waitFor, type Harness } from './app-harness';
import { remoteAppRig } from './remote-app-rig';

const SIZE = 24 * 1_048_576;
const CHUNK = 1_048_576;

describe('transfers', () => {
  let h: Harness;
  let dir: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ h, dir, close } = await startLocalApp('tether-transfer-'));
  });
  afterAll(() => close());

  /** Hidden staging files of uploads still in the folder. */
  const staged = (): string[] => readdirSync(dir).filter((name) => name.includes('.tether-upload-'));

  const transfer = (id: string): TransferView | undefined =>
    h
      .eventsNamed('transfers.changed')
      .filter((t) => t.id === id)
      .at(-1);

  it('round-trips 24 MiB byte-exactly with progress', async () => {
    const data = randomBytes(SIZE);
    const remotePath = path.join(dir, 'random.bin');
    const upload = await h.invoke('transfers.startUpload', { envId: 'local', remotePath, totalBytes: SIZE });
    expect(upload).toMatchObject({ direction: 'upload', name: 'random.bin', totalBytes: SIZE });
    for (let offset = 0; offset < SIZE; offset += CHUNK) {
      const chunk = data.subarray(offset, offset + CHUNK);
      if (offset + CHUNK >= SIZE) {
        // All but the last chunk sent: the bytes so far sit under a hidden name, not the real one.
        expect(existsSync(remotePath)).toBe(false);
        expect(staged()).toHaveLength(1);
      }
      await h.invoke('transfers.uploadChunk', {
        id: upload.id,
        offset,
        dataBase64: chunk.toString('base64'),
        last: offset + CHUNK >= SIZE,
      });
    }
    await waitFor(() => transfer(upload.id)?.state === 'done', 'upload done', 120_000);
    expect(readFileSync(remotePath).equals(data)).toBe(true);
    expect(staged()).toEqual([]);
    const uploadProgress = h
      .eventsNamed('transfers.changed')
      .filter((t) => t.id === upload.id && t.state === 'running' && t.doneBytes > 0 && t.doneBytes < SIZE);
    expect(uploadProgress.length).toBeGreaterThan(0);
    expect(uploadProgress.some((t) => t.rate > 0)).toBe(true);

    const { transfer: download, url } = await h.invoke('transfers.startDownload', {
      envId: 'local',
      remotePath,
    });
    expect(url).toBeNull();
    await waitFor(() => transfer(download.id)?.state === 'done', 'download done', 120_000);
    expect(transfer(download.id)?.doneBytes).toBe(SIZE);
    expect(readFileSync(path.join(h.dataDir, 'downloaded-random.bin')).equals(data)).toBe(true);
    expect(
      h
        .eventsNamed('transfers.changed')
        .some((t) => t.id === download.id && t.state === 'running' && t.doneBytes > 0 && t.doneBytes < SIZE),
    ).toBe(true);

    const listed = await h.invoke('transfers.list', {});
    expect(listed.map((t) => t.id)).toEqual(expect.arrayContaining([upload.id, download.id]));
    await h.invoke('transfers.clearFinished', {});
    expect(await h.invoke('transfers.list', {})).toEqual([]);
  });

  it('cancels an upload, refuses further chunks, and reports a failing download clearly', async () => {
    const remotePath = path.join(dir, 'partial.bin');
    const upload = await h.invoke('transfers.startUpload', {
      envId: 'local',
      remotePath,
      totalBytes: 4 * CHUNK,
    });
    await h.invoke('transfers.uploadChunk', {
      id: upload.id,
      offset: 0,
      dataBase64: randomBytes(CHUNK).toString('base64'),
      last: false,
    });
    await h.invoke('transfers.cancel', { id: upload.id });
    expect(transfer(upload.id)?.state).toBe('cancelled');
    // A cancelled new file leaves nothing behind, under either name.
    await waitFor(() => staged().length === 0, 'the partial upload removed');
    expect(existsSync(remotePath)).toBe(false);
    await expect(
      h.invoke('transfers.uploadChunk', {
        id: upload.id,
        offset: CHUNK,
        dataBase64: randomBytes(16).toString('base64'),
        last: false,
      }),
    ).rejects.toMatchObject({ code: 'conflict' });
    await expect(
      h.invoke('transfers.startDownload', { envId: 'local', remotePath: path.join(dir, 'missing.bin') }),
    ).rejects.toMatchObject({
      code: 'notFound',
    });
    await expect(
      h.invoke('transfers.startDownload', { envId: 'local', remotePath: dir }),
    ).rejects.toMatchObject({ code: 'invalidInput' });
    await expect(
      h.invoke('transfers.uploadChunk', { id: 'no-such-transfer', offset: 0, dataBase64: '', last: true }),
    ).rejects.toMatchObject({ code: 'notFound' });
    const empty = await h.invoke('transfers.startUpload', {
      envId: 'local',
      remotePath: path.join(dir, 'empty.txt'),
      totalBytes: 0,
    });
    await h.invoke('transfers.uploadChunk', { id: empty.id, offset: 0, dataBase64: '', last: true });
    await waitFor(() => transfer(empty.id)?.state === 'done', 'empty upload done');
    expect(existsSync(path.join(dir, 'empty.txt'))).toBe(true);
  });
});

describe('cancelling a download (Tether ws server behind a throttled link)', () => {
  /** Large enough, at THROTTLE_BYTES_PER_S, that a cancel after the first bytes lands mid-way. */
  const DOWNLOAD_SIZE = 16 * 1_048_576;
  const THROTTLE_BYTES_PER_S = 2 * 1_048_576;
  const rig = remoteAppRig();

  /** Partial files of downloads still on the local disk. */
  const partialFiles = (): string[] => readdirSync(rig.h.dataDir).filter((name) => name.endsWith('.part'));

  /** Starts a download of `remotePath` and waits until its first bytes are on the local disk. */
  async function startAndWaitForBytes(remotePath: string): Promise<TransferView> {
    const { transfer: started } = await rig.h.invoke('transfers.startDownload', {
      envId: rig.envId,
      remotePath,
    });
    await waitFor(() => {
      const view = rig.transfer(started.id);
      return view?.state === 'running' && view.doneBytes > 0;
    }, 'the first downloaded bytes');
    return started;
  }

  /** A random remote file of DOWNLOAD_SIZE, and where the harness's download host saves it. */
  function remoteFile(name: string): { data: Buffer; remotePath: string; destination: string } {
    const data = randomBytes(DOWNLOAD_SIZE);
    const remotePath = path.join(rig.server.home, name);
    writeFileSync(remotePath, data);
    // The harness's download host saves to <dataDir>/downloaded-<name>, through a .part file.
    return { data, remotePath, destination: path.join(rig.h.dataDir, `downloaded-${name}`) };
  }

  it('stops mid-way as cancelled, removes the partial file, and a later download still works', async () => {
    const { data, remotePath, destination } = remoteFile('big.bin');
    rig.proxy.throttle(THROTTLE_BYTES_PER_S, 'downstream');
    const first = await startAndWaitForBytes(remotePath);
    expect(partialFiles()).toHaveLength(1);
    await rig.h.invoke('transfers.cancel', { id: first.id });
    expect(rig.transfer(first.id)).toMatchObject({ state: 'cancelled', error: null });
    expect(rig.transfer(first.id)!.doneBytes).toBeLessThan(DOWNLOAD_SIZE);
    // Once the block in flight has landed, the partial file goes and nothing takes the real name.
    await waitFor(() => partialFiles().length === 0, 'the partial file removed');
    expect(existsSync(destination)).toBe(false);
    expect((await rig.h.invoke('transfers.list', {})).find((t) => t.id === first.id)?.state).toBe(
      'cancelled',
    );

    rig.proxy.throttle(null);
    const { transfer: second } = await rig.h.invoke('transfers.startDownload', {
      envId: rig.envId,
      remotePath,
    });
    await waitFor(() => rig.transfer(second.id)?.state === 'done', 'the later download done', 120_000);
    expect(readFileSync(destination).equals(data)).toBe(true);
    expect(partialFiles()).toEqual([]);
    expect(rig.transfer(first.id)?.state).toBe('cancelled');
  });

  it('a download started right after a cancel is not disturbed by the cancelled one winding down', async () => {
    const { data, remotePath, destination } = remoteFile('again.bin');
    rig.proxy.throttle(THROTTLE_BYTES_PER_S, 'downstream');
    const first = await startAndWaitForBytes(remotePath);
    await rig.h.invoke('transfers.cancel', { id: first.id });
    // Same file, same destination, while the cancelled one still has a block in flight.
    const { transfer: second } = await rig.h.invoke('transfers.startDownload', {
      envId: rig.envId,
      remotePath,
    });
    rig.proxy.throttle(null);
    await waitFor(
      () => ['done', 'failed'].includes(rig.transfer(second.id)?.state ?? ''),
      'the second download ended',
      120_000,
    );
    expect(rig.transfer(second.id)).toMatchObject({ state: 'done', error: null });
    expect(readFileSync(destination).equals(data)).toBe(true);
    await waitFor(() => partialFiles().length === 0, 'no partial file left');
    expect(rig.transfer(first.id)?.state).toBe('cancelled');
  });
});
