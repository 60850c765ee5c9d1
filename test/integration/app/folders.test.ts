// Folder transfers through the AppService against Tether's and codex's servers: a tree with empty
// files and folders, spaces and unicode in names goes up (plan + per-file chunks, as the renderer
// sends it) and comes down (into a local folder, and as a zip a real `unzip` reads) byte-exactly,
// with per-file progress; symlinks are reported, not followed; taken names are answered per file;
// a cancel stops the folder; a cut in the middle of a folder resumes byte-exactly.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FolderUploadPlan, IfExists, TransferView } from '../../../shared/ipc';
import { walkLocalFolder } from '../../../electron/client/files/folder-walk';
import { WebDownloads } from '../../../electron/web/web-downloads';
import { createHarness, startLocalApp, waitFor, type Harness } from './app-harness';
import { remoteAppRig } from './remote-app-rig';

const CHUNK = 1_048_576;

/** A tree with every kind of name and size the folder code must get right. */
function makeTree(root: string, bigBytes = 2 * CHUNK + 12_345): void {
  mkdirSync(path.join(root, 'sub dir', 'deeper'), { recursive: true });
  mkdirSync(path.join(root, 'empty folder'), { recursive: true });
  mkdirSync(path.join(root, 'nested', 'empty inner'), { recursive: true });
  writeFileSync(path.join(root, 'a.txt'), randomBytes(300_000));
  writeFileSync(path.join(root, 'empty.txt'), '');
  writeFileSync(path.join(root, 'sub dir', 'ünï cödé €.bin'), randomBytes(bigBytes));
  writeFileSync(path.join(root, 'sub dir', 'deeper', 'x y.txt'), 'deep');
  writeFileSync(path.join(root, 'nested', '日本語.txt'), randomBytes(5_000));
}

/** Every folder and regular file under `root` (symlinks left out), with file contents in hex. */
function snapshotTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (dir: string, prefix: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const info = lstatSync(full);
      if (info.isSymbolicLink()) continue;
      if (info.isDirectory()) {
        out[`${prefix}${name}/`] = 'dir';
        visit(full, `${prefix}${name}/`);
      } else out[`${prefix}${name}`] = readFileSync(full).toString('hex');
    }
  };
  visit(root, '');
  return out;
}

/** The upload plan the renderer would send for local folder `root`. */
async function planOf(root: string, ifExists: Record<string, IfExists> = {}): Promise<FolderUploadPlan> {
  const tree = await walkLocalFolder(root);
  return {
    folders: tree.folders,
    files: tree.files.map((f) => ({ ...f, ifExists: ifExists[f.path] ?? 'fail' })),
    skipped: tree.skipped,
  };
}

/** Sends the files of `plan` from `root` in order, as the renderer does; a refused file is left. */
/** Called after each chunk the renderer's part has sent that is not a file's last. */
type AfterChunk = (file: FolderUploadPlan['files'][number], sentBytes: number) => Promise<void>;

async function sendFiles(
  h: Harness,
  id: string,
  root: string,
  plan: FolderUploadPlan,
  afterChunk?: AfterChunk,
): Promise<void> {
  for (const [index, file] of plan.files.entries()) {
    const data = readFileSync(path.join(root, file.path));
    try {
      let offset = 0;
      do {
        const end = Math.min(data.length, offset + CHUNK);
        await h.invoke('transfers.uploadChunk', {
          id,
          file: index,
          offset,
          dataBase64: data.subarray(offset, end).toString('base64'),
          last: end >= data.length,
        });
        if (end < data.length) await afterChunk?.(file, end);
        offset = end;
      } while (offset < data.length);
    } catch (error) {
      if ((error as { code?: string }).code !== 'conflict') throw error;
    }
  }
}

function latest(h: Harness, id: string): TransferView | undefined {
  return h
    .eventsNamed('transfers.changed')
    .filter((t) => t.id === id)
    .at(-1);
}

async function ended(h: Harness, id: string, timeoutMs = 120_000): Promise<TransferView> {
  return waitFor(
    () => {
      const view = latest(h, id);
      return view && ['done', 'failed', 'cancelled'].includes(view.state) ? view : undefined;
    },
    `transfer ${id} to end`,
    timeoutMs,
  );
}

async function uploadFolder(
  h: Harness,
  envId: string,
  localRoot: string,
  remotePath: string,
  plan?: FolderUploadPlan,
  afterChunk?: AfterChunk,
) {
  const thePlan = plan ?? (await planOf(localRoot));
  const started = await h.invoke('transfers.startFolderUpload', { envId, remotePath, plan: thePlan });
  await sendFiles(h, started.id, localRoot, thePlan, afterChunk);
  return ended(h, started.id);
}

/** Staging files of uploads or downloads left anywhere under `root`. */
function leftovers(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
    (name) => name.includes('.tether-upload-') || name.endsWith('.part'),
  );
}

function roundTripSuite(label: string, impl: 'tether' | 'codex') {
  describe(`folders round-trip (${label})`, () => {
    const rig = remoteAppRig({ impl });
    let local: string;
    beforeAll(() => {
      local = mkdtempSync(path.join(os.tmpdir(), 'tether-folder-src-'));
      makeTree(path.join(local, 'my folder ✓'));
    });
    afterAll(() => rmSync(local, { recursive: true, force: true }));

    it('uploads a tree byte-exactly with per-file progress, and downloads it back with links reported', async () => {
      const source = path.join(local, 'my folder ✓');
      const remote = path.join(rig.server.home, 'my folder ✓');
      // Per-file progress: while the big file is half sent, the queue shows it part-way.
      const partWay = (t: TransferView): boolean =>
        t.files?.some((f) => f.path.endsWith('.bin') && f.doneBytes > 0 && f.doneBytes < f.totalBytes) ??
        false;
      let sawPartWay = false;
      const done = await uploadFolder(rig.h, rig.envId, source, remote, undefined, async (file) => {
        if (!file.path.endsWith('.bin') || sawPartWay) return;
        await waitFor(() => rig.h.eventsNamed('transfers.changed').some(partWay), 'the big file part-way');
        sawPartWay = true;
      });
      expect(done).toMatchObject({ state: 'done', error: null, name: 'my folder ✓' });
      expect(snapshotTree(remote)).toEqual(snapshotTree(source));
      expect(leftovers(remote)).toEqual([]);
      expect(sawPartWay).toBe(true);
      expect(done.files?.every((f) => f.state === 'done')).toBe(true);
      expect(done.doneBytes).toBe(done.totalBytes);

      symlinkSync('a.txt', path.join(remote, 'link to a'));
      symlinkSync('/nowhere/at/all', path.join(remote, 'sub dir', 'dangling'));
      const started = await rig.h.invoke('transfers.startFolderDownload', {
        envId: rig.envId,
        remotePath: remote,
      });
      expect(started).toMatchObject({ url: null, taken: [], planId: null });
      const down = await ended(rig.h, started.transfer!.id);
      expect(down).toMatchObject({ state: 'done', error: null });
      const destination = path.join(rig.h.dataDir, 'downloaded-my folder ✓');
      expect(snapshotTree(destination)).toEqual(snapshotTree(source));
      expect(existsSync(path.join(destination, 'link to a'))).toBe(false);
      const link = down.files?.find((f) => f.path === 'link to a');
      expect(link).toMatchObject({ state: 'skipped' });
      // codex's fs methods do not see a link that points nowhere, so only Tether's server reports it.
      const dangling = down.files?.find((f) => f.path === 'sub dir/dangling');
      if (impl === 'tether') expect(dangling).toMatchObject({ state: 'skipped' });
      else expect(dangling).toBeUndefined();
      expect(leftovers(destination)).toEqual([]);
    });

    it('a cut in the middle of a folder resumes byte-exactly, both ways', async () => {
      const source = path.join(local, 'cut');
      makeTree(source, 24 * CHUNK);
      const remote = path.join(rig.server.home, 'cut');
      const plan = await planOf(source);
      const up = await rig.h.invoke('transfers.startFolderUpload', {
        envId: rig.envId,
        remotePath: remote,
        plan,
      });
      const big = plan.files.findIndex((f) => f.path.endsWith('.bin'));
      const sending = sendFiles(rig.h, up.id, source, plan);
      await waitFor(
        () => (latest(rig.h, up.id)?.files?.[big]?.doneBytes ?? 0) > 2 * CHUNK,
        'upload half-way',
      );
      expect(rig.proxy.cutAll()).toBeGreaterThan(0);
      await sending;
      expect(await ended(rig.h, up.id)).toMatchObject({ state: 'done', error: null });
      expect(snapshotTree(remote)).toEqual(snapshotTree(source));

      const started = await rig.h.invoke('transfers.startFolderDownload', {
        envId: rig.envId,
        remotePath: remote,
      });
      const id = started.transfer!.id;
      await waitFor(
        () => (latest(rig.h, id)?.files?.find((f) => f.path.endsWith('.bin'))?.doneBytes ?? 0) > 2 * CHUNK,
        'download half-way',
      );
      expect(rig.proxy.cutAll()).toBeGreaterThan(0);
      expect(await ended(rig.h, id)).toMatchObject({ state: 'done', error: null });
      const destination = path.join(rig.h.dataDir, 'downloaded-cut');
      expect(snapshotTree(destination)).toEqual(snapshotTree(source));
      expect(leftovers(destination)).toEqual([]);
    });
  });
}

roundTripSuite("Tether's server", 'tether');
roundTripSuite("codex's server", 'codex');

describe('folder conflicts, cancel and zip (Tether stdio server)', () => {
  let h: Harness;
  let dir: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ h, dir, close } = await startLocalApp('tether-folder-'));
  });
  afterAll(() => close());

  it('answers taken names per file on upload: replace, keep both, skip', async () => {
    const source = path.join(dir, 'src');
    makeTree(source);
    const remote = path.join(dir, 'dest');
    mkdirSync(path.join(remote, 'sub dir', 'deeper'), { recursive: true });
    writeFileSync(path.join(remote, 'a.txt'), 'old a');
    writeFileSync(path.join(remote, 'empty.txt'), 'old empty');
    writeFileSync(path.join(remote, 'sub dir', 'deeper', 'x y.txt'), 'old x');
    const full = await planOf(source, { 'a.txt': 'replace', 'empty.txt': 'keepBoth' });
    // Skipped files are not sent; the renderer lists them with the reason.
    const plan: FolderUploadPlan = {
      ...full,
      files: full.files.filter((f) => f.path !== 'sub dir/deeper/x y.txt'),
      skipped: [{ path: 'sub dir/deeper/x y.txt', reason: 'kept the existing file' }],
    };
    const done = await uploadFolder(h, 'local', source, remote, plan);
    expect(done).toMatchObject({ state: 'done', error: null });
    expect(readFileSync(path.join(remote, 'a.txt'))).toEqual(readFileSync(path.join(source, 'a.txt')));
    expect(readFileSync(path.join(remote, 'empty.txt'), 'utf8')).toBe('old empty');
    expect(readFileSync(path.join(remote, 'empty (1).txt'), 'utf8')).toBe('');
    expect(readFileSync(path.join(remote, 'sub dir', 'deeper', 'x y.txt'), 'utf8')).toBe('old x');
    expect(done.files?.find((f) => f.path === 'empty.txt')).toMatchObject({
      state: 'done',
      note: 'saved as empty (1).txt',
    });
    expect(done.files?.find((f) => f.path === 'sub dir/deeper/x y.txt')).toMatchObject({ state: 'skipped' });

    // A taken name nobody answered ("fail") is refused for that file alone; the rest arrive.
    const again = await uploadFolder(h, 'local', source, path.join(dir, 'dest'));
    expect(again.state).toBe('failed');
    expect(again.error).toMatch(/files did not arrive/);
    expect(again.files?.find((f) => f.path === 'a.txt')).toMatchObject({ state: 'failed' });
    expect(readFileSync(path.join(remote, 'empty.txt'), 'utf8')).toBe('old empty');
    expect(leftovers(remote)).toEqual([]);
  });

  it('asks about taken local names on download and writes only what was answered', async () => {
    const remote = path.join(dir, 'down');
    makeTree(remote);
    const first = await h.invoke('transfers.startFolderDownload', { envId: 'local', remotePath: remote });
    await ended(h, first.transfer!.id);
    const destination = path.join(h.dataDir, 'downloaded-down');
    writeFileSync(path.join(destination, 'a.txt'), 'local a');
    writeFileSync(path.join(destination, 'empty.txt'), 'local empty');
    writeFileSync(path.join(destination, 'nested', '日本語.txt'), 'local jp');

    const second = await h.invoke('transfers.startFolderDownload', { envId: 'local', remotePath: remote });
    expect(second.transfer).toBeNull();
    expect([...second.taken].sort()).toEqual(
      ['a.txt', 'empty.txt', 'nested/日本語.txt', 'sub dir/deeper/x y.txt', 'sub dir/ünï cödé €.bin'].sort(),
    );
    const { transfer } = await h.invoke('transfers.confirmFolderDownload', {
      planId: second.planId!,
      answers: { 'a.txt': 'replace', 'empty.txt': 'keepBoth' },
    });
    expect(await ended(h, transfer.id)).toMatchObject({ state: 'done' });
    expect(readFileSync(path.join(destination, 'a.txt'))).toEqual(readFileSync(path.join(remote, 'a.txt')));
    expect(readFileSync(path.join(destination, 'empty.txt'), 'utf8')).toBe('local empty');
    expect(readFileSync(path.join(destination, 'empty (1).txt'), 'utf8')).toBe('');
    expect(readFileSync(path.join(destination, 'nested', '日本語.txt'), 'utf8')).toBe('local jp');
    await expect(
      h.invoke('transfers.confirmFolderDownload', { planId: second.planId!, answers: {} }),
    ).rejects.toMatchObject({ code: 'notFound' });
  });

  it('cancels a folder upload part-way: the file in flight and the rest stop, nothing staged is left', async () => {
    const source = path.join(dir, 'cancel-src');
    mkdirSync(source);
    for (let i = 0; i < 4; i++) writeFileSync(path.join(source, `f${i}.bin`), randomBytes(3 * CHUNK));
    const remote = path.join(dir, 'cancel-dest');
    const plan = await planOf(source);
    const up = await h.invoke('transfers.startFolderUpload', { envId: 'local', remotePath: remote, plan });
    // Sends the first file and half of the second, then cancels.
    const first = readFileSync(path.join(source, plan.files[0]!.path));
    for (let offset = 0; offset < first.length; offset += CHUNK) {
      await h.invoke('transfers.uploadChunk', {
        id: up.id,
        file: 0,
        offset,
        dataBase64: first.subarray(offset, offset + CHUNK).toString('base64'),
        last: offset + CHUNK >= first.length,
      });
    }
    await waitFor(() => latest(h, up.id)?.files?.[0]?.state === 'done', 'first file done');
    await h.invoke('transfers.uploadChunk', {
      id: up.id,
      file: 1,
      offset: 0,
      dataBase64: randomBytes(CHUNK).toString('base64'),
      last: false,
    });
    await h.invoke('transfers.cancel', { id: up.id });
    const view = latest(h, up.id)!;
    expect(view.state).toBe('cancelled');
    expect(view.files?.map((f) => f.state)).toEqual(['done', 'cancelled', 'cancelled', 'cancelled']);
    await expect(
      h.invoke('transfers.uploadChunk', { id: up.id, file: 1, offset: CHUNK, dataBase64: '', last: false }),
    ).rejects.toMatchObject({ code: 'conflict' });
    await waitFor(() => leftovers(remote).length === 0, 'staged files removed');
    expect(readdirSync(remote)).toEqual([plan.files[0]!.path]);
  });
});

describe('folder download in web mode', () => {
  const scope = '/scope/';
  const downloads = new WebDownloads(scope);
  let h: Harness;
  let dir: string;
  let server: http.Server;
  let origin: string;
  beforeAll(async () => {
    h = await createHarness({ downloads });
    dir = mkdtempSync(path.join(os.tmpdir(), 'tether-zip-'));
    // The web host's download route, alone: GET <scope>download/<id> is served by WebDownloads.
    server = http.createServer((request, response) => {
      const id = (request.url ?? '').slice(`${scope}download/`.length);
      if (!downloads.serve(id, 'GET', response)) response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    await waitFor(
      async () => (await h.invoke('environments.list', {}))[0]?.link.kind === 'connected',
      'local connected',
    );
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('streams a folder as a zip through a one-time URL, which unzip reads back byte-exactly', async () => {
    const remote = path.join(dir, 'zip me');
    makeTree(remote);
    symlinkSync('a.txt', path.join(remote, 'link'));
    const started = await h.invoke('transfers.startFolderDownload', { envId: 'local', remotePath: remote });
    expect(started.url).toMatch(/^\/scope\/download\/[A-Za-z0-9_-]+$/);
    const response = await fetch(`${origin}${started.url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toContain('zip%20me.zip');
    const zip = path.join(dir, 'out.zip');
    writeFileSync(zip, Buffer.from(await response.arrayBuffer()));
    expect(await ended(h, started.transfer!.id)).toMatchObject({ state: 'done', error: null });
    const unpacked = path.join(dir, 'unpacked');
    execFileSync('unzip', ['-q', zip, '-d', unpacked]);
    expect(snapshotTree(path.join(unpacked, 'zip me'))).toEqual({ ...snapshotTree(remote) });
    expect(latest(h, started.transfer!.id)?.files?.find((f) => f.path === 'link')).toMatchObject({
      state: 'skipped',
    });
    // The link was used up.
    expect((await fetch(`${origin}${started.url}`)).status).toBe(404);
  });
});
