// Conflicts through the AppService, against Tether's and codex's ws servers alike: an upload or a
// rename never replaces an existing name unless told to; "replace" swaps the file in only once
// the new contents are complete (keeping its mode on Tether's server); "keep both" picks the
// first free numbered name; nothing staged is left behind.
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { IfExists, TransferView } from '../../../shared/ipc';
import { waitFor } from './app-harness';
import { remoteAppRig, type RemoteAppRig } from './remote-app-rig';

const CHUNK = 256 * 1024;

describe.each(['tether', 'codex'] as const)('conflicts on the %s server', (impl) => {
  // Cases that need a Tether extension are only defined for Tether (not reported as skipped for codex).
  const itOnTether = impl === 'tether' ? it : () => undefined;
  const rig = remoteAppRig({ impl });
  const home = (): string => rig.server.home;
  const at = (name: string): string => path.join(home(), name);
  const staged = (): string[] => readdirSync(home()).filter((name) => name.includes('.tether-upload-'));

  it('refuses an upload over an existing file and leaves it untouched', async () => {
    writeFileSync(at('notes.txt'), 'keep me\n');
    await expect(
      rig.h.invoke('transfers.startUpload', { envId: rig.envId, remotePath: at('notes.txt'), totalBytes: 3 }),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect(readFileSync(at('notes.txt'), 'utf8')).toBe('keep me\n');
    expect(
      await rig.h.invoke('files.existing', {
        envId: rig.envId,
        dir: home(),
        names: ['notes.txt', 'new.txt'],
      }),
    ).toEqual({ names: ['notes.txt'] });
  });

  it('replaces only once the new contents are complete', async () => {
    writeFileSync(at('run.sh'), '#!/bin/sh\necho old\n');
    chmodSync(at('run.sh'), 0o754);
    const content = Buffer.alloc(3 * CHUNK, 'n');
    const upload = await startUpload(rig, at('run.sh'), content.length, 'replace');
    await sendChunks(rig, upload, content, (offset) => {
      // Until the last chunk, the old file is whole under its name.
      if (offset + CHUNK >= content.length)
        expect(readFileSync(at('run.sh'), 'utf8')).toBe('#!/bin/sh\necho old\n');
    });
    await waitFor(() => rig.transfer(upload.id)?.state === 'done', 'upload done');
    expect(readFileSync(at('run.sh')).equals(content)).toBe(true);
    // Codex has no rename: its server copies the staged file over, which gives the staged mode.
    if (impl === 'tether') expect(statSync(at('run.sh')).mode & 0o777).toBe(0o754);
    expect(staged()).toEqual([]);
  });

  it('keeps both under the first free numbered name', async () => {
    writeFileSync(at('report.pdf'), 'one');
    writeFileSync(at('report (1).pdf'), 'two');
    const upload = await startUpload(rig, at('report.pdf'), 5, 'keepBoth');
    expect(upload).toMatchObject({ name: 'report (2).pdf', remotePath: at('report (2).pdf') });
    await sendChunks(rig, upload, Buffer.from('three'));
    await waitFor(() => rig.transfer(upload.id)?.state === 'done', 'upload done');
    expect(readFileSync(at('report.pdf'), 'utf8')).toBe('one');
    expect(readFileSync(at('report (1).pdf'), 'utf8')).toBe('two');
    expect(readFileSync(at('report (2).pdf'), 'utf8')).toBe('three');
    expect(staged()).toEqual([]);
  });

  it('an empty upload follows the same rules', async () => {
    writeFileSync(at('empty.txt'), 'not empty');
    await expect(startUpload(rig, at('empty.txt'), 0, 'fail')).rejects.toMatchObject({ code: 'conflict' });
    const upload = await startUpload(rig, at('empty.txt'), 0, 'replace');
    await sendChunks(rig, upload, Buffer.alloc(0));
    await waitFor(() => rig.transfer(upload.id)?.state === 'done', 'upload done');
    expect(readFileSync(at('empty.txt'), 'utf8')).toBe('');
    expect(staged()).toEqual([]);
  });

  it('a rename refuses an existing target unless told to replace it or keep both', async () => {
    writeFileSync(at('a.txt'), 'A');
    writeFileSync(at('b.txt'), 'B');
    await expect(
      rig.h.invoke('files.rename', { envId: rig.envId, from: at('a.txt'), to: at('b.txt') }),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect(readFileSync(at('a.txt'), 'utf8')).toBe('A');
    expect(readFileSync(at('b.txt'), 'utf8')).toBe('B');

    const kept = await rig.h.invoke('files.rename', {
      envId: rig.envId,
      from: at('a.txt'),
      to: at('b.txt'),
      ifExists: 'keepBoth',
    });
    expect(kept.path).toBe(at('b (1).txt'));
    expect(readFileSync(at('b (1).txt'), 'utf8')).toBe('A');
    expect(readFileSync(at('b.txt'), 'utf8')).toBe('B');

    await rig.h.invoke('files.rename', {
      envId: rig.envId,
      from: at('b (1).txt'),
      to: at('b.txt'),
      ifExists: 'replace',
    });
    expect(readFileSync(at('b.txt'), 'utf8')).toBe('A');
    expect(existsSync(at('b (1).txt'))).toBe(false);
  });

  // Codex's fs methods do not show a dangling link at all (getMetadata: not found; readDirectory
  // leaves it out), so only Tether's server can report its name as taken.
  itOnTether('a dangling symlink counts as taken', async () => {
    symlinkSync(at('nowhere'), at('link'));
    await expect(startUpload(rig, at('link'), 1, 'fail')).rejects.toMatchObject({ code: 'conflict' });
  });
});

function startUpload(rig: RemoteAppRig, remotePath: string, totalBytes: number, ifExists: IfExists) {
  return rig.h.invoke('transfers.startUpload', { envId: rig.envId, remotePath, totalBytes, ifExists });
}

async function sendChunks(
  rig: RemoteAppRig,
  upload: TransferView,
  data: Buffer,
  beforeChunk: (offset: number) => void = () => undefined,
): Promise<void> {
  let offset = 0;
  do {
    beforeChunk(offset);
    const chunk = data.subarray(offset, offset + CHUNK);
    await rig.h.invoke('transfers.uploadChunk', {
      id: upload.id,
      offset,
      dataBase64: chunk.toString('base64'),
      last: offset + CHUNK >= data.length,
    });
    offset += CHUNK;
  } while (offset < data.length);
}
