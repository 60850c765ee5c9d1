// The file browser as a keyboard user and a new user meet it (issue #14, defects 1, 2 and 15):
// SVG icons instead of emoji, a tree that shows where you are (also after New folder), and a list
// driven by arrows, Enter, F2, Delete, type-ahead, Shift/Ctrl selection and whole-cell sort headers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FileEntry } from '../../shared/ipc';
import { makeEnv, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { decodeBase64 } from '../terminals/xterm/base64';
import { FileBrowser } from './file-browser';

const entry = (dir: string, name: string, kind: FileEntry['kind'] = 'file', size = 1): FileEntry => ({
  name,
  path: `${dir === '/' ? '' : dir}/${name}`,
  kind,
  size: kind === 'directory' ? null : size,
  modifiedAtMs: 1_700_000_000_000,
  hidden: false,
});

/** A small remote tree: /home/u holds a folder and four files. Fresh per test (New folder adds). */
let TREE: Record<string, FileEntry[]>;
const freshTree = (): Record<string, FileEntry[]> => ({
  '/': [entry('/', 'home', 'directory'), entry('/', 'tmp', 'directory')],
  '/home': [entry('/home', 'u', 'directory')],
  '/home/u': [
    entry('/home/u', 'src', 'directory'),
    entry('/home/u', 'alpha.txt', 'file', 30),
    entry('/home/u', 'beta.log', 'file', 10),
    entry('/home/u', 'bravo.md', 'file', 20),
    entry('/home/u', 'photo.png', 'file', 40),
  ],
});

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withFreshBridge();
  TREE = freshTree();
  bridge.handle('files.home', () => ({ home: '/home/u', cwd: '/home/u' }));
  bridge.handle('files.list', ({ path }) => ({ path, entries: TREE[path] ?? [] }));
  bridge.handle('files.preview', ({ path }) => ({
    kind: 'text',
    text: `text of ${path}`,
    truncated: false,
    size: 9,
  }));
  bridge.handle('files.delete', () => ({ ok: true }));
  bridge.handle('files.mkdir', ({ path }) => {
    TREE['/home/u']!.push(entry('/home/u', path.split('/').pop()!, 'directory'));
    return { ok: true };
  });
});
afterEach(cleanup);

async function openBrowser() {
  render(<FileBrowser env={makeEnv()} />);
  const table = await screen.findByRole('table', { name: 'Folder contents' });
  await within(table).findByText('alpha.txt');
  return { table, list: screen.getByRole('region', { name: 'Files' }) };
}

const cursorName = (table: HTMLElement) => table.querySelector('tr.cursor')?.getAttribute('data-path');
const markedNames = (table: HTMLElement) =>
  [...table.querySelectorAll('tr[aria-selected="true"]')].map((r) => r.getAttribute('data-path'));

describe('file icons', () => {
  it('are SVG icons, never emoji that need a colour-emoji font', async () => {
    const { table } = await openBrowser();
    for (const row of within(table).getAllByRole('row').slice(1)) {
      expect(row.querySelector('svg.file-icon')).not.toBeNull();
      expect(row.textContent).not.toMatch(/\p{Extended_Pictographic}/u);
    }
    expect(screen.getByRole('navigation', { name: 'Folder tree' }).textContent).not.toMatch(/[▸▾]/);
  });
});

describe('the folder tree', () => {
  it('opens down to the current folder and marks it', async () => {
    await openBrowser();
    const tree = screen.getByRole('navigation', { name: 'Folder tree' });
    await within(tree).findByRole('button', { name: 'u' });
    expect(within(tree).getByRole('button', { name: 'u' }).getAttribute('aria-current')).toBe('true');
    expect(within(tree).getByRole('button', { name: 'Collapse home' }).getAttribute('aria-expanded')).toBe(
      'true',
    );
    expect(within(tree).getByRole('button', { name: 'tmp' })).toBeTruthy();
  });

  it('still shows the path after New folder (not a lone "/")', async () => {
    const user = userEvent.setup();
    await openBrowser();
    await user.click(screen.getByRole('button', { name: 'New folder' }));
    await user.type(screen.getByLabelText('Name'), 'made{enter}');
    const tree = screen.getByRole('navigation', { name: 'Folder tree' });
    await within(tree).findByRole('button', { name: 'made' });
    expect(within(tree).getByRole('button', { name: 'u' }).getAttribute('aria-current')).toBe('true');
    expect(within(tree).getByRole('button', { name: 'tmp' })).toBeTruthy();
  });
});

describe('the file list keyboard', () => {
  it('moves with arrows, opens with Enter, and goes up with Backspace', async () => {
    const user = userEvent.setup();
    const { table, list } = await openBrowser();
    list.focus();
    await user.keyboard('{ArrowDown}');
    expect(cursorName(table)).toBe('/home/u/src');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(cursorName(table)).toBe('/home/u/beta.log');
    expect(await screen.findByText('text of /home/u/beta.log')).toBeTruthy();
    await user.keyboard('{ArrowUp}');
    expect(cursorName(table)).toBe('/home/u/alpha.txt');
    await user.keyboard('{Home}{Enter}');
    await waitFor(() => expect(bridge.callsOf('files.list').at(-1)?.path).toBe('/home/u/src'));
    await user.keyboard('{Backspace}');
    await waitFor(() => expect(bridge.callsOf('files.list').at(-1)?.path).toBe('/home/u'));
  });

  it('jumps by type-ahead, stepping through names that start with a repeated letter', async () => {
    const user = userEvent.setup();
    const { table, list } = await openBrowser();
    list.focus();
    await user.keyboard('p');
    expect(cursorName(table)).toBe('/home/u/photo.png');
    await user.keyboard('b');
    // "pb" matches nothing new: a fresh search starts only after a pause, so the cursor stays.
    expect(cursorName(table)).toBe('/home/u/photo.png');
  });

  it('steps through names with one letter', async () => {
    const user = userEvent.setup();
    const { table, list } = await openBrowser();
    list.focus();
    await user.keyboard('b');
    expect(cursorName(table)).toBe('/home/u/beta.log');
    await user.keyboard('b');
    expect(cursorName(table)).toBe('/home/u/bravo.md');
  });

  it('renames with F2 and deletes every Shift-selected entry with Delete, after asking', async () => {
    const user = userEvent.setup();
    const { table, list } = await openBrowser();
    list.focus();
    await user.keyboard('a');
    await user.keyboard('{F2}');
    expect(screen.getByRole('dialog', { name: 'Rename alpha.txt' })).toBeTruthy();
    await user.keyboard('{Escape}');
    list.focus();
    await user.keyboard('{Shift>}{ArrowDown}{ArrowDown}{/Shift}');
    expect(markedNames(table)).toEqual(['/home/u/alpha.txt', '/home/u/beta.log', '/home/u/bravo.md']);
    await user.keyboard('{Delete}');
    const dialog = screen.getByRole('dialog', { name: 'Delete 3 items?' });
    expect(bridge.callsOf('files.delete')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(bridge.callsOf('files.delete').map((c) => c.path)).toEqual([
        '/home/u/alpha.txt',
        '/home/u/beta.log',
        '/home/u/bravo.md',
      ]),
    );
  });

  it('adds and removes single entries with Ctrl+click, and selects all with Ctrl+A', async () => {
    const user = userEvent.setup();
    const { table, list } = await openBrowser();
    const row = (name: string) => table.querySelector(`tr[data-path="/home/u/${name}"]`)!;
    await user.click(row('alpha.txt').querySelector('td.col-size')!);
    await user.keyboard('{Control>}');
    await user.click(row('photo.png').querySelector('td.col-size')!);
    await user.keyboard('{/Control}');
    expect(markedNames(table)).toEqual(['/home/u/alpha.txt', '/home/u/photo.png']);
    list.focus();
    await user.keyboard('{Control>}a{/Control}');
    expect(markedNames(table)).toHaveLength(5);
  });
});

describe('the sort header', () => {
  it('sorts on a click anywhere in the header cell, not only on its text', async () => {
    const { table } = await openBrowser();
    const names = () => [...table.querySelectorAll('tbody tr')].map((r) => r.getAttribute('data-path'));
    const sizeHeader = within(table).getByRole('columnheader', { name: 'Size' });
    fireEvent.click(sizeHeader);
    expect(names().slice(1)).toEqual([
      '/home/u/beta.log',
      '/home/u/bravo.md',
      '/home/u/alpha.txt',
      '/home/u/photo.png',
    ]);
    expect(sizeHeader.getAttribute('aria-sort')).toBe('ascending');
  });
});

describe('FileBrowser', () => {
  const homeEntry = (name: string, kind: FileEntry['kind'], size: number | null): FileEntry => ({
    name,
    path: `/home/u/${name}`,
    kind,
    size,
    modifiedAtMs: 1_700_000_000_000,
    hidden: false,
  });

  it('lists a folder, sorts by size, previews text and uploads dropped files in ordered chunks', async () => {
    const user = userEvent.setup();
    bridge.handle('files.home', () => ({ home: '/home/u', cwd: '/home/u' }));
    bridge.handle('files.list', ({ path }) => ({
      path,
      entries: [
        homeEntry('b.txt', 'file', 10),
        homeEntry('a.log', 'file', 5_000),
        homeEntry('src', 'directory', null),
      ],
    }));
    bridge.handle('files.preview', () => ({
      kind: 'text',
      text: 'hello from b',
      truncated: false,
      size: 12,
    }));
    const chunks: { offset: number; data: string; last: boolean }[] = [];
    bridge.handle('transfers.startUpload', ({ envId, remotePath, totalBytes }) => ({
      id: 't1',
      envId,
      direction: 'upload',
      remotePath,
      name: 'big.bin',
      totalBytes,
      doneBytes: 0,
      rate: 0,
      state: 'running',
      error: null,
      startedAt: Date.now(),
      endedAt: null,
    }));
    bridge.handle('transfers.uploadChunk', ({ offset, dataBase64, last }) => {
      chunks.push({ offset, data: dataBase64, last });
      return { ok: true };
    });
    bridge.handle('files.existing', () => ({ names: [] }));

    render(<FileBrowser env={makeEnv()} />);
    const table = await screen.findByRole('table', { name: 'Folder contents' });
    await within(table).findByText(/b\.txt/);
    const names = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => (r as HTMLTableRowElement).cells[0]?.textContent);
    expect(names()).toEqual(['src', 'a.log', 'b.txt']);
    await user.click(within(table).getByRole('button', { name: 'Size' }));
    expect(names()).toEqual(['src', 'b.txt', 'a.log']);

    await user.click(within(table).getByRole('button', { name: 'b.txt' }));
    expect(await screen.findByText('hello from b')).toBeTruthy();

    const bytes = new Uint8Array(700 * 1024).map((_, i) => i % 251);
    const file = new File([bytes], 'big.bin');
    fireEvent.drop(screen.getByRole('region', { name: 'Files' }), { dataTransfer: { files: [file] } });
    await waitFor(() => expect(chunks.at(-1)?.last).toBe(true));
    expect(bridge.callsOf('transfers.startUpload')[0]).toEqual({
      envId: 'env-1',
      remotePath: '/home/u/big.bin',
      totalBytes: bytes.length,
      ifExists: 'fail',
    });
    expect(chunks.map((c) => c.offset)).toEqual([0, 512 * 1024]);
    const joined = new Uint8Array(chunks.flatMap((c) => [...decodeBase64(c.data)]));
    expect(joined).toEqual(bytes);
  });

  it('loads the folder again when the first load fails right at connect', async () => {
    let calls = 0;
    bridge.handle('files.home', () => {
      calls += 1;
      if (calls === 1) throw new Error('the link is not ready');
      return { home: '/home/u', cwd: '/home/u' };
    });
    bridge.handle('files.list', ({ path }) => ({ path, entries: [homeEntry('later.txt', 'file', 1)] }));
    render(<FileBrowser env={makeEnv()} />);
    expect(await screen.findByText('later.txt', {}, { timeout: 10_000 })).toBeTruthy();
    expect(calls).toBe(2);
  });

  it('asks before deleting', async () => {
    const user = userEvent.setup();
    bridge.handle('files.home', () => ({ home: '/home/u', cwd: '/home/u' }));
    bridge.handle('files.list', ({ path }) => ({ path, entries: [homeEntry('old.txt', 'file', 1)] }));
    bridge.handle('files.delete', () => ({ ok: true }));
    render(<FileBrowser env={makeEnv()} />);
    await user.click(await screen.findByRole('button', { name: 'More actions for old.txt' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete old.txt?' });
    expect(bridge.callsOf('files.delete')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(bridge.callsOf('files.delete')).toEqual([{ envId: 'env-1', path: '/home/u/old.txt' }]),
    );
  });
});

describe('a folder of dot-files only', () => {
  it('says it holds hidden files instead of calling itself empty', async () => {
    bridge.handle('files.list', ({ path }) => ({ path, entries: [], hiddenCount: 3 }));
    render(<FileBrowser env={makeEnv()} />);
    expect(await screen.findByText('Only hidden files here (3): tick Hidden to see them.')).toBeTruthy();
    expect(screen.queryByText('Empty folder. Drop files here to upload.')).toBeNull();
  });
});

describe('a symbolic link', () => {
  it('is marked as a link beside its name', async () => {
    TREE['/home/u']!.push({ ...entry('/home/u', 'current', 'directory'), link: true });
    const { table } = await openBrowser();
    const row = within(table).getByText('current').closest('tr')!;
    expect(within(row).getByLabelText('symbolic link')).toBeTruthy();
    expect(
      within(within(table).getByText('alpha.txt').closest('tr')!).queryByLabelText('symbolic link'),
    ).toBeNull();
  });
});
