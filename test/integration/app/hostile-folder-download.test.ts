// The app's downloads from a hostile server (test/support/hostile-fs-server.ts) whose listing names
// "..", "../x", "../../victim.txt", "a/b", "/abs", "", NUL and backslashes, and whose files are
// longer or shorter than it says: into a local folder (as the Electron host does it) nothing lands
// outside the picked folder, and as a web-mode zip no entry leaves the folder; either way the
// refused names are listed in the transfer and the honest files arrive.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TransferView } from '../../../shared/ipc';
import { localPathUnder } from '../../../electron/client/files/entry-names';
import { localFolderTarget } from '../../../electron/app/files/folder-download-target';
import { fileDownloadTarget } from '../../../electron/app/files/file-download-target';
import type { DownloadHost } from '../../../electron/app/host-services';
import { WebDownloads } from '../../../electron/web/web-downloads';
import {
  hostileTree,
  startHostileFsServer,
  treeSnapshot as snapshot,
  type HostileFsServer,
} from '../../support/hostile-fs-server';
import { createHarness, waitFor, type Harness } from './app-harness';

/** What the server lists that must be refused, as the transfer's rows name them. */
const REFUSED = [
  '',
  '..',
  '../../victim.txt',
  '../x',
  '../\u001b[2J\u001b[1Aevil',
  '..\\..\\x.cmd',
  '/abs',
  'a/b',
  'a\u0000b',
  'sub/..',
].sort();

function latest(h: Harness, id: string): TransferView | undefined {
  return h
    .eventsNamed('transfers.changed')
    .filter((t) => t.id === id)
    .at(-1);
}

function ended(h: Harness, id: string): Promise<TransferView> {
  return waitFor(() => {
    const view = latest(h, id);
    return view && ['done', 'failed', 'cancelled'].includes(view.state) ? view : undefined;
  }, `transfer ${id} to end`);
}

function rowsIn(view: TransferView, state: string): string[] {
  return (view.files ?? [])
    .filter((f) => f.state === state)
    .map((f) => f.path)
    .sort();
}

let server: HostileFsServer;
let scratch: string;
let h: Harness | undefined;
beforeEach(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'tether-hostile-download-'));
});
afterEach(async () => {
  await h?.close();
  h = undefined;
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** An AppService whose environment "Hostile" reaches the hostile server, connected. */
async function appOn(downloads: DownloadHost, liars = true): Promise<{ h: Harness; envId: string }> {
  server = await startHostileFsServer({ root: '/share', entries: hostileTree({ liars }) });
  h = await createHarness({ autoConnect: false, downloads });
  const harness = h;
  const { id } = await harness.invoke('environments.add', {
    name: 'Hostile',
    color: '#993333',
    settings: { kind: 'ws', url: server.url },
  });
  await waitFor(
    async () =>
      (await harness.invoke('environments.list', {})).find((e) => e.id === id)?.link.kind === 'connected',
    'the hostile environment connected',
  );
  return { h: harness, envId: id };
}

describe('downloads from a hostile server', () => {
  it('into a local folder: nothing outside it, refused names listed, liars failed, the rest arrived', async () => {
    const home = path.join(scratch, 'home');
    const picked = path.join(home, 'Downloads');
    mkdirSync(picked, { recursive: true });
    writeFileSync(path.join(home, 'victim.txt'), 'the original\n');
    // The Electron host's folder download: a folder named after the server's, inside the picked one.
    const { h, envId } = await appOn({
      begin: async ({ name }) => ({ url: null, target: fileDownloadTarget(localPathUnder(picked, name)) }),
      beginFolder: async ({ name }) => ({
        url: null,
        target: Promise.resolve(localFolderTarget(localPathUnder(picked, name))),
      }),
    });

    const started = await h.invoke('transfers.startFolderDownload', { envId, remotePath: '/share' });
    expect(started.taken).toEqual([]);
    const view = await ended(h, started.transfer!.id);

    // (A failed file's partial copy is removed just after the failure is reported.)
    await expect
      .poll(() => snapshot(scratch), { timeout: 10_000 })
      .toEqual({
        'home/': 'dir',
        'home/Downloads/': 'dir',
        'home/Downloads/share/': 'dir',
        'home/Downloads/share/empty folder/': 'dir',
        'home/Downloads/share/good.txt': 'good\n',
        'home/Downloads/share/sub/': 'dir',
        'home/Downloads/share/sub/inner.txt': 'inner\n',
        'home/victim.txt': 'the original\n',
      });
    expect(view.state).toBe('failed');
    expect(view.error).toMatch(/3 of 5 files did not arrive/);
    expect(view.error).toMatch(/The server listed 10 names that cannot be used on this machine/);
    expect(rowsIn(view, 'done')).toEqual(['good.txt', 'sub/inner.txt']);
    expect(rowsIn(view, 'failed')).toEqual([...REFUSED, 'liar.bin', 'liar.txt', 'short.txt'].sort());
    const note = (p: string): string | null | undefined => view.files?.find((f) => f.path === p)?.note;
    for (const refused of REFUSED) expect(note(refused), refused).toMatch(/^refused, not downloaded: /);
    expect(note('../x')).toContain('path separator');
    expect(note('liar.bin')).toMatch(/longer than the 614400 bytes the server declared/);
    expect(note('liar.txt')).toMatch(/longer than the 5 bytes the server declared/);
    expect(note('short.txt')).toMatch(/ended after 5 of the 100 bytes/);
  });

  it('refuses a folder or file whose own name cannot be a local name, and a single liar', async () => {
    const picked = path.join(scratch, 'Downloads');
    mkdirSync(picked);
    const { h, envId } = await appOn({
      begin: async ({ name }) => ({ url: null, target: fileDownloadTarget(localPathUnder(picked, name)) }),
      beginFolder: async ({ name }) => ({
        url: null,
        target: Promise.resolve(localFolderTarget(localPathUnder(picked, name))),
      }),
    });
    // The ".." folder the listing shows: downloading it must not name the local folder "..".
    await expect(
      h.invoke('transfers.startFolderDownload', { envId, remotePath: '/share/..' }),
    ).rejects.toMatchObject({
      code: 'remote',
      message: expect.stringMatching(/Refused the server's name "\.\."/),
    });
    await expect(
      h.invoke('transfers.startDownload', { envId, remotePath: '/share/..\\..\\x.cmd' }),
    ).rejects.toMatchObject({ code: 'remote', message: expect.stringContaining('path separator') });

    const liar = await h.invoke('transfers.startDownload', { envId, remotePath: '/share/liar.bin' });
    const view = await ended(h, liar.transfer.id);
    expect(view).toMatchObject({
      state: 'failed',
      error: expect.stringContaining('longer than the 614400 bytes'),
    });
    // Neither the file nor its partial copy is left.
    await expect.poll(() => readdirSync(picked), { timeout: 10_000 }).toEqual([]);
  });

  it('as a web-mode zip: only the honest entries, all inside the folder, and the refused ones listed', async () => {
    const scope = '/scope/';
    const downloads = new WebDownloads(scope);
    const route = http.createServer((request, response) => {
      const id = (request.url ?? '').slice(`${scope}download/`.length);
      if (!downloads.serve(id, 'GET', response)) response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => route.listen(0, '127.0.0.1', resolve));
    try {
      // A zip stops at a file that fails (it would be cut), so this tree tells no size lies.
      const { h, envId } = await appOn(downloads, false);
      const started = await h.invoke('transfers.startFolderDownload', { envId, remotePath: '/share' });
      const response = await fetch(
        `http://127.0.0.1:${(route.address() as { port: number }).port}${started.url}`,
      );
      expect(response.status).toBe(200);
      const zip = path.join(scratch, 'share.zip');
      writeFileSync(zip, Buffer.from(await response.arrayBuffer()));
      const view = await ended(h, started.transfer!.id);

      const listing = execFileSync('zipinfo', ['-1', zip], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .sort();
      expect(listing).toEqual(['share/empty folder/', 'share/good.txt', 'share/sub/', 'share/sub/inner.txt']);
      const unpacked = path.join(scratch, 'unpacked');
      execFileSync('unzip', ['-q', zip, '-d', unpacked]);
      expect(snapshot(unpacked)).toEqual({
        'share/': 'dir',
        'share/empty folder/': 'dir',
        'share/good.txt': 'good\n',
        'share/sub/': 'dir',
        'share/sub/inner.txt': 'inner\n',
      });
      // The zip is whole; the transfer still says what the server listed that was left out.
      expect(view.state).toBe('failed');
      expect(view.error).toMatch(/The server listed 10 names that cannot be used on this machine/);
      expect(view.error).toMatch(/everything else arrived/);
      expect(rowsIn(view, 'failed')).toEqual(REFUSED);
      expect(rowsIn(view, 'done')).toEqual(['good.txt', 'sub/inner.txt']);
    } finally {
      await new Promise((resolve) => route.close(resolve));
    }
  });
});
