// Folders through the UI in Chromium (web mode, Local environment): a real local folder chosen with
// the "Upload folder…" input goes up as a tree, with a folder row in the transfer queue that opens
// into its files, each with its own progress; the folder then appears in the list, and downloading
// it gives a zip whose contents match byte for byte. A folder chosen with the browser's folder
// picker brings its empty folders (nested ones too), up and back down in the zip.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openEmptyFolder } from './files-ui';
import { saveScreenshot, reportOnFailure } from './screens';
import { localRig } from './local-rig';

/** Generous bound for UI conditions on a shared, loaded machine. */
const UI_TIMEOUT_MS = 60_000;
const poll = { timeout: UI_TIMEOUT_MS, interval: 100 };

/** The files of the folder the test uploads, by path inside it. */
const FILES: Record<string, Buffer> = {
  'notes.txt': Buffer.from('some notes\n'),
  'empty.txt': Buffer.alloc(0),
  'sub dir/ünï cödé.bin': Buffer.from(Array.from({ length: 3_000_000 }, (_, i) => (i * 31 + 7) % 251)),
  'sub dir/deeper/x y.txt': Buffer.from('deep\n'),
};

/** Every folder under `root`, by "/"-separated path. */
function foldersUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => statSync(path.join(root, name)).isDirectory())
    .map((name) => name.split(path.sep).join('/'))
    .sort();
}

/** Every file under `root` by "/"-separated path, with its bytes. */
function filesUnder(root: string): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const full = path.join(root, name);
    if (statSync(full).isFile()) out[name.split(path.sep).join('/')] = readFileSync(full);
  }
  return out;
}

describe('web app: folders', () => {
  const rig = localRig('tether-e2e-folders-');

  it('uploads a chosen folder with per-file progress, lists it, and downloads it back as a zip', async () => {
    const { app, browser, scratch } = rig;
    const { page } = browser;
    reportOnFailure(page, 'folders', app);
    // Playwright's own waits (30 s by default) get the same generous bound on a loaded machine.
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    const source = path.join(scratch, 'local', 'my folder ✓');
    for (const [name, data] of Object.entries(FILES)) {
      mkdirSync(path.dirname(path.join(source, name)), { recursive: true });
      writeFileSync(path.join(source, name), data);
    }
    const remote = path.join(scratch, 'remote');
    mkdirSync(remote);
    await page.goto(app.url);
    await expect
      .poll(() => page.getByRole('img', { name: /^Connection: connected/ }).count(), poll)
      .toBeGreaterThan(0);
    await openEmptyFolder(page, remote, UI_TIMEOUT_MS);

    await page.getByLabel('Choose a folder to upload').setInputFiles(source);
    const transfers = page.getByRole('region', { name: 'Transfers' });
    const row = transfers.getByRole('row', { name: 'upload my folder ✓' });
    await expect.poll(() => row.count(), poll).toBe(1);
    await row.getByRole('button', { name: /my folder ✓\// }).click();
    const fileList = transfers.getByRole('table', { name: 'Files of my folder ✓' });
    for (const name of Object.keys(FILES)) {
      await expect.poll(() => fileList.getByRole('row', { name }).count(), poll).toBe(1);
    }
    await expect.poll(() => row.textContent(), poll).toContain('done');
    await expect.poll(() => row.textContent(), poll).toContain('4 of 4 files');
    for (const name of Object.keys(FILES)) {
      expect(await fileList.getByRole('row', { name }).textContent()).toContain('done');
    }
    expect(filesUnder(path.join(remote, 'my folder ✓'))).toEqual(FILES);
    await saveScreenshot(page, 'folder-uploaded');

    // The list refreshed by itself: the new folder is there.
    const folderButton = page
      .getByRole('table', { name: 'Folder contents' })
      .getByRole('button', { name: 'my folder ✓', exact: true });
    await expect.poll(() => folderButton.count(), poll).toBe(1);

    const downloaded = page.waitForEvent('download', { timeout: UI_TIMEOUT_MS });
    await page.getByRole('button', { name: 'Download my folder ✓' }).click();
    const download = await downloaded;
    expect(download.suggestedFilename()).toBe('my folder ✓.zip');
    const zip = path.join(scratch, 'folder.zip');
    await download.saveAs(zip);
    const unpacked = path.join(scratch, 'unpacked');
    execFileSync('unzip', ['-q', zip, '-d', unpacked]);
    expect(filesUnder(path.join(unpacked, 'my folder ✓'))).toEqual(FILES);
    const downloadRow = transfers.getByRole('row', { name: 'download my folder ✓' });
    await expect.poll(() => downloadRow.textContent(), poll).toContain('done');
  }, 300_000);

  it('uploads the empty folders of a folder from the folder picker, and downloads them back', async () => {
    const { app, browser, scratch } = rig;
    const { page } = browser;
    reportOnFailure(page, 'folders-empty', app);
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    const remote = path.join(scratch, 'remote-empty');
    mkdirSync(remote);
    await page.goto(app.url);
    await expect
      .poll(() => page.getByRole('img', { name: /^Connection: connected/ }).count(), poll)
      .toBeGreaterThan(0);
    await openEmptyFolder(page, remote, UI_TIMEOUT_MS);
    // The picker hands the page a real folder handle: one made in the page's own private file
    // system (the native dialog cannot be driven), holding empty folders at three depths.
    await page.evaluate(async () => {
      const root = await (
        await navigator.storage.getDirectory()
      ).getDirectoryHandle('proj', { create: true });
      await root.getDirectoryHandle('empty', { create: true });
      const a = await root.getDirectoryHandle('a', { create: true });
      const b = await a.getDirectoryHandle('b', { create: true });
      await b.getDirectoryHandle('empty deeper', { create: true });
      const writable = await (await a.getFileHandle('note.txt', { create: true })).createWritable();
      await writable.write('note\n');
      await writable.close();
      Object.assign(window, { showDirectoryPicker: () => Promise.resolve(root) });
    });
    await page.getByRole('button', { name: 'Upload folder…' }).click();
    const row = page.getByRole('region', { name: 'Transfers' }).getByRole('row', { name: 'upload proj' });
    await expect.poll(() => row.textContent(), poll).toContain('done');
    const uploaded = path.join(remote, 'proj');
    expect(foldersUnder(uploaded)).toEqual(['a', 'a/b', 'a/b/empty deeper', 'empty']);
    expect(filesUnder(uploaded)).toEqual({ 'a/note.txt': Buffer.from('note\n') });

    const folderButton = page
      .getByRole('table', { name: 'Folder contents' })
      .getByRole('button', { name: 'proj', exact: true });
    await expect.poll(() => folderButton.count(), poll).toBe(1);
    const downloaded = page.waitForEvent('download', { timeout: UI_TIMEOUT_MS });
    await page.getByRole('button', { name: 'Download proj' }).click();
    const zip = path.join(scratch, 'proj.zip');
    await (await downloaded).saveAs(zip);
    const unpacked = path.join(scratch, 'unpacked-empty');
    execFileSync('unzip', ['-q', zip, '-d', unpacked]);
    expect(foldersUnder(path.join(unpacked, 'proj'))).toEqual(['a', 'a/b', 'a/b/empty deeper', 'empty']);
  }, 300_000);
});
