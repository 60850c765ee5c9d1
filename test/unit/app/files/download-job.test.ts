// The download job's end: a cancel that lands while the last block is in flight must not let the
// file appear under its real name. The remote side is a scripted RemoteFileSystemApi, because the
// race (the stream ends normally just after the user cancelled) cannot be timed against a server.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RemoteFileSystemApi } from '../../../../electron/client/api';
import { prepareDownload } from '../../../../electron/app/files/download-job';
import { fileDownloadTarget } from '../../../../electron/app/files/file-download-target';
import type { DownloadHost } from '../../../../electron/app/host-services';

const BLOCK = new Uint8Array([1, 2, 3, 4]);

/** A one-block file whose stream calls `duringLastBlock` before it returns normally. */
function oneBlockFile(duringLastBlock: () => void): RemoteFileSystemApi {
  return {
    getMetadata: async () => ({ isDirectory: false, isFile: true, size: BLOCK.byteLength }),
    readStream: async (_path: string, onChunk: (chunk: Uint8Array, offset: number) => unknown) => {
      await onChunk(BLOCK, 0);
      duringLastBlock();
      return { bytes: BLOCK.byteLength };
    },
  } as unknown as RemoteFileSystemApi;
}

function diskHost(destination: string): DownloadHost {
  return {
    begin: async () => ({ url: null, target: fileDownloadTarget(destination) }),
    beginFolder: async () => null,
  };
}

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = '';
});

describe('download job', () => {
  it('a cancel during the last block leaves neither the file nor its partial copy', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tether-download-'));
    const destination = path.join(dir, 'file.bin');
    const cancel = new AbortController();
    const fs = oneBlockFile(() => cancel.abort());
    const prepared = await prepareDownload(fs, '/remote/file.bin', diskHost(destination));
    await expect(
      prepared.job!.run(
        cancel.signal,
        () => undefined,
        () => undefined,
        () => undefined,
      ),
    ).rejects.toThrow();
    await expect.poll(async () => readdir(dir)).toEqual([]);
  });

  it('an uncancelled stream ends with the file under its real name', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tether-download-'));
    const destination = path.join(dir, 'file.bin');
    const prepared = await prepareDownload(
      oneBlockFile(() => undefined),
      '/remote/file.bin',
      diskHost(destination),
    );
    await prepared.job!.run(
      new AbortController().signal,
      () => undefined,
      () => undefined,
      () => undefined,
    );
    expect(await readdir(dir)).toEqual(['file.bin']);
  });
});
