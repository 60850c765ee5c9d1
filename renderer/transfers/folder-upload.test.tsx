// Folder uploads in the file browser: a folder chosen with "Upload folder…" becomes one folder
// upload whose taken names are asked about once with "apply to all", whose files are sent in plan
// order, and whose queue row opens into its files with their own progress and notes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TransferView } from '../../shared/ipc';
import { useTransfers } from './transfers-store';
import { makeEnv, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { FileBrowser } from '../files/file-browser';
import { TransferQueue } from './transfer-queue';

let bridge: FakeBridge;
/** Paths (inside /home/u) already on the "server". */
const EXISTING = ['proj/a.txt', 'proj/sub/b.txt'];

const folderView = (files: TransferView['files']): TransferView => ({
  id: 'f1',
  envId: 'local',
  direction: 'upload',
  remotePath: '/home/u/proj',
  name: 'proj',
  totalBytes: 30,
  doneBytes: 10,
  rate: 0,
  state: 'running',
  error: null,
  startedAt: Date.now(),
  endedAt: null,
  files,
});

beforeEach(() => {
  bridge = withFreshBridge();
  bridge.handle('files.home', () => ({ home: '/home/u', cwd: '/home/u' }));
  bridge.handle('files.list', ({ path }) => ({ path, entries: [] }));
  bridge.handle('files.existing', ({ names }) => ({ names: names.filter((n) => EXISTING.includes(n)) }));
  bridge.handle('transfers.startFolderUpload', ({ envId, remotePath, plan }) => ({
    ...folderView([]),
    envId,
    remotePath,
    totalBytes: plan.files.reduce((sum, f) => sum + f.size, 0),
    doneBytes: 0,
  }));
  bridge.handle('transfers.uploadChunk', () => ({ ok: true }));
});
afterEach(() => {
  cleanup();
  useTransfers.getState().setAll([]);
});

/** Chooses a folder "proj" holding `paths`, as <input webkitdirectory> hands it to the page. */
async function chooseFolder(paths: string[]): Promise<void> {
  render(<FileBrowser env={makeEnv()} />);
  await screen.findByRole('table', { name: 'Folder contents' });
  const files = paths.map((p) => {
    const file = new File([p], p.slice(p.lastIndexOf('/') + 1));
    Object.defineProperty(file, 'webkitRelativePath', { value: `proj/${p}` });
    return file;
  });
  const input = screen.getByLabelText('Choose a folder to upload');
  expect(input.hasAttribute('webkitdirectory')).toBe(true);
  fireEvent.change(input, { target: { files } });
}

const plans = () => bridge.callsOf('transfers.startFolderUpload').map((c) => c.plan);

describe('folder upload', () => {
  it('asks once with "apply to all" for the taken names, then sends every file in plan order', async () => {
    const user = userEvent.setup();
    await chooseFolder(['a.txt', 'new.txt', 'sub/b.txt', 'sub/deep/c.txt']);
    const dialog = await screen.findByRole('dialog', { name: 'a.txt already exists' });
    expect(plans()).toEqual([]);
    await user.click(within(dialog).getByLabelText('Do this for the other 1 conflict'));
    await user.click(within(dialog).getByRole('button', { name: 'Keep both' }));
    await waitFor(() => expect(plans()).toHaveLength(1));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(bridge.callsOf('transfers.startFolderUpload')[0]!.remotePath).toBe('/home/u/proj');
    expect(plans()[0]).toEqual({
      folders: ['sub', 'sub/deep'],
      files: [
        { path: 'a.txt', size: 5, ifExists: 'keepBoth' },
        { path: 'new.txt', size: 7, ifExists: 'fail' },
        { path: 'sub/b.txt', size: 9, ifExists: 'keepBoth' },
        { path: 'sub/deep/c.txt', size: 14, ifExists: 'fail' },
      ],
      skipped: [],
    });
    await waitFor(() => expect(bridge.callsOf('transfers.uploadChunk')).toHaveLength(4));
    expect(bridge.callsOf('transfers.uploadChunk').map((c) => [c.file, atob(c.dataBase64), c.last])).toEqual([
      [0, 'a.txt', true],
      [1, 'new.txt', true],
      [2, 'sub/b.txt', true],
      [3, 'sub/deep/c.txt', true],
    ]);
  });

  it('Skip leaves a taken file out of the upload and lists it as kept', async () => {
    const user = userEvent.setup();
    await chooseFolder(['a.txt', 'new.txt', 'sub/b.txt']);
    const first = await screen.findByRole('dialog', { name: 'a.txt already exists' });
    await user.click(within(first).getByRole('button', { name: 'Skip' }));
    const second = await screen.findByRole('dialog', { name: 'sub/b.txt already exists' });
    await user.click(within(second).getByRole('button', { name: 'Replace' }));
    await waitFor(() => expect(plans()).toHaveLength(1));
    expect(plans()[0]!.files.map((f) => [f.path, f.ifExists])).toEqual([
      ['new.txt', 'fail'],
      ['sub/b.txt', 'replace'],
    ]);
    expect(plans()[0]!.skipped).toEqual([{ path: 'a.txt', reason: 'kept the existing file' }]);
  });

  it('a folder download asks about taken local names with "apply to all", then confirms the answers', async () => {
    const user = userEvent.setup();
    bridge.handle('files.list', ({ path }) => ({
      path,
      entries: [
        {
          name: 'proj',
          path: '/home/u/proj',
          kind: 'directory',
          size: null,
          modifiedAtMs: null,
          hidden: false,
        },
      ],
    }));
    bridge.handle('transfers.startFolderDownload', () => ({
      transfer: null,
      url: null,
      taken: ['a.txt', 'sub/b.txt', 'sub/c.txt'],
      planId: 'plan-1',
    }));
    bridge.handle('transfers.confirmFolderDownload', () => ({
      transfer: { ...folderView([]), direction: 'download' },
      url: null,
    }));
    render(<FileBrowser env={makeEnv()} />);
    await user.click(await screen.findByRole('button', { name: 'Download proj' }));
    const first = await screen.findByRole('dialog', { name: 'a.txt already exists' });
    await user.click(within(first).getByRole('button', { name: 'Replace' }));
    const second = await screen.findByRole('dialog', { name: 'sub/b.txt already exists' });
    await user.click(within(second).getByLabelText('Do this for the other 1 conflict'));
    await user.click(within(second).getByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(bridge.callsOf('transfers.confirmFolderDownload')).toHaveLength(1));
    expect(bridge.callsOf('transfers.confirmFolderDownload')[0]).toEqual({
      planId: 'plan-1',
      answers: { 'a.txt': 'replace', 'sub/b.txt': 'skip', 'sub/c.txt': 'skip' },
    });
    expect(useTransfers.getState().byId['f1']?.direction).toBe('download');
  });

  it('Retry starts a failed folder upload again with only the files that did not arrive', async () => {
    const user = userEvent.setup();
    await chooseFolder(['x.txt', 'y.txt', 'z.txt']);
    await waitFor(() => expect(bridge.callsOf('transfers.uploadChunk')).toHaveLength(3));
    act(() =>
      useTransfers.getState().upsert({
        ...folderView([
          { path: 'x.txt', totalBytes: 5, doneBytes: 5, state: 'done', note: null },
          { path: 'y.txt', totalBytes: 5, doneBytes: 0, state: 'failed', note: 'disk full' },
          { path: 'z.txt', totalBytes: 5, doneBytes: 0, state: 'cancelled', note: null },
        ]),
        envId: makeEnv().id,
        state: 'failed',
        error: '1 of 3 files did not arrive',
      }),
    );
    const row = await screen.findByRole('row', { name: 'upload proj' });
    await user.click(within(row).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(plans()).toHaveLength(2));
    expect(plans()[1]!.files.map((f) => f.path)).toEqual(['y.txt', 'z.txt']);
  });

  it('shows a folder row with its file count that opens into per-file progress and notes', async () => {
    const user = userEvent.setup();
    useTransfers.getState().upsert(
      folderView([
        { path: 'a.txt', totalBytes: 10, doneBytes: 10, state: 'done', note: 'saved as a (1).txt' },
        { path: 'sub/b.bin', totalBytes: 20, doneBytes: 5, state: 'running', note: null },
        { path: 'link', totalBytes: 0, doneBytes: 0, state: 'skipped', note: 'a symbolic link' },
      ]),
    );
    render(<TransferQueue envId="local" />);
    const row = screen.getByRole('row', { name: 'upload proj' });
    const toggle = within(row).getByRole('button', { name: /proj\// });
    expect(toggle.textContent).toContain('1 of 2 files, 1 skipped');
    expect(screen.queryByRole('table', { name: 'Files of proj' })).toBeNull();
    await user.click(toggle);
    const files = screen.getByRole('table', { name: 'Files of proj' });
    expect(within(files).getByRole('row', { name: 'a.txt' }).textContent).toContain(
      'done: saved as a (1).txt',
    );
    const running = within(files).getByRole('row', { name: 'sub/b.bin' });
    expect(within(running).getByRole('progressbar').getAttribute('value')).toBe('5');
    expect(within(files).getByRole('row', { name: 'link' }).textContent).toContain(
      'skipped: a symbolic link',
    );
  });
});
