// The conflict dialog in the file browser: an upload or a rename onto a taken name asks first
// (Replace / Keep both / Skip), "apply to all" answers the rest of a batch, nothing taken is
// written without an answer, and the listing refreshes once an upload has landed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IpcError, type FileEntry, type TransferView } from '../../shared/ipc';
import { useTransfers } from './transfers-store';
import { makeEnv, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { FileBrowser } from '../files/file-browser';

let bridge: FakeBridge;
const EXISTING = ['a.txt', 'b.txt'];
const entry = (name: string): FileEntry => ({
  name,
  path: `/home/u/${name}`,
  kind: 'file',
  size: 1,
  modifiedAtMs: 1_700_000_000_000,
  hidden: false,
});

beforeEach(() => {
  bridge = withFreshBridge();
  bridge.handle('files.home', () => ({ home: '/home/u', cwd: '/home/u' }));
  bridge.handle('files.list', ({ path }) => ({ path, entries: EXISTING.map(entry) }));
  bridge.handle('files.existing', ({ names }) => ({ names: names.filter((n) => EXISTING.includes(n)) }));
  let next = 0;
  bridge.handle('transfers.startUpload', ({ envId, remotePath, totalBytes }) => ({
    id: `t${++next}`,
    envId,
    direction: 'upload',
    remotePath,
    name: remotePath.slice(remotePath.lastIndexOf('/') + 1),
    totalBytes,
    doneBytes: 0,
    rate: 0,
    state: 'running',
    error: null,
    startedAt: Date.now(),
    endedAt: null,
  }));
  bridge.handle('transfers.uploadChunk', () => ({ ok: true }));
});
afterEach(cleanup);

async function dropFiles(names: string[]): Promise<void> {
  render(<FileBrowser env={makeEnv()} />);
  await screen.findByRole('table', { name: 'Folder contents' });
  const files = names.map((name) => new File([name], name));
  fireEvent.drop(screen.getByRole('region', { name: 'Files' }), { dataTransfer: { files } });
}

const uploads = () => bridge.callsOf('transfers.startUpload').map((c) => [c.remotePath, c.ifExists]);

describe('ConflictDialog', () => {
  it('asks for each taken name, and "apply to all" answers the rest of the batch', async () => {
    const user = userEvent.setup();
    await dropFiles(['a.txt', 'new.txt', 'b.txt']);
    const dialog = await screen.findByRole('dialog', { name: 'a.txt already exists' });
    // Nothing was started before the answer, not even the file without a conflict after it.
    expect(uploads()).toEqual([]);
    await user.click(within(dialog).getByLabelText('Do this for the other 1 conflict'));
    await user.click(within(dialog).getByRole('button', { name: 'Keep both' }));
    await waitFor(() => expect(uploads()).toHaveLength(3));
    expect(uploads()).toEqual([
      ['/home/u/a.txt', 'keepBoth'],
      ['/home/u/new.txt', 'fail'],
      ['/home/u/b.txt', 'keepBoth'],
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks again without "apply to all"; Skip uploads nothing for that name', async () => {
    const user = userEvent.setup();
    await dropFiles(['a.txt', 'b.txt']);
    const first = await screen.findByRole('dialog', { name: 'a.txt already exists' });
    await user.click(within(first).getByRole('button', { name: 'Skip' }));
    const second = await screen.findByRole('dialog', { name: 'b.txt already exists' });
    expect(within(second).queryByRole('checkbox')).toBeNull();
    await user.click(within(second).getByRole('button', { name: 'Replace' }));
    await waitFor(() => expect(uploads()).toEqual([['/home/u/b.txt', 'replace']]));
  });

  it('refreshes the listing once an upload has landed', async () => {
    await dropFiles(['new.txt']);
    await waitFor(() => expect(uploads()).toHaveLength(1));
    const listsBefore = bridge.callsOf('files.list').length;
    const view = useTransfers.getState().byId['t1'] as TransferView;
    act(() => useTransfers.getState().upsert({ ...view, state: 'done', endedAt: Date.now() }));
    await waitFor(() => expect(bridge.callsOf('files.list').length).toBeGreaterThan(listsBefore));
  });

  it('a rename onto a taken name asks, and only then replaces', async () => {
    const user = userEvent.setup();
    bridge.handle('files.rename', ({ ifExists }) => {
      if (!ifExists || ifExists === 'fail') throw new IpcError('conflict', 'b.txt already exists');
      return { ok: true, path: '/home/u/b.txt' };
    });
    render(<FileBrowser env={makeEnv()} />);
    // Rename sits in the row's "More actions" menu.
    await user.click(await screen.findByRole('button', { name: 'More actions for a.txt' }));
    await user.click(await screen.findByRole('menuitem', { name: /Rename/ }));
    const prompt = screen.getByRole('dialog', { name: 'Rename a.txt' });
    await user.clear(within(prompt).getByLabelText('Name'));
    await user.type(within(prompt).getByLabelText('Name'), 'b.txt{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'b.txt already exists' });
    expect(bridge.callsOf('files.rename')).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Replace' }));
    await waitFor(() => expect(bridge.callsOf('files.rename')).toHaveLength(2));
    expect(bridge.callsOf('files.rename')[1]).toMatchObject({ to: '/home/u/b.txt', ifExists: 'replace' });
  });
});
