// The workspace in the Files view: Open folder roots the tree and the list in a folder (and the app
// remembers it), Close folder goes back home; New file, Duplicate (Ctrl+D), Copy / Cut and Paste
// (Ctrl+C / X / V, a taken name asked about), and dragging entries onto a folder all reach the
// app and refresh the list; and a change made elsewhere shows once the open folder is listed again.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FileEntry } from '../../shared/ipc';
import { IpcError } from '../../shared/ipc';
import { makeEnv, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { useEnvironments } from '../environments/environments-store';
import { FileBrowser } from './file-browser';
import { ENTRIES_DRAG_TYPE } from './file-table';
import { FOLDER_POLL_MS, folderPollDelay } from './workspace-actions';

const entry = (dir: string, name: string, kind: FileEntry['kind'] = 'file'): FileEntry => ({
  name,
  path: `${dir === '/' ? '' : dir}/${name}`,
  kind,
  size: kind === 'directory' ? null : 1,
  modifiedAtMs: 1_700_000_000_000,
  hidden: false,
});

let TREE: Record<string, FileEntry[]>;
let bridge: FakeBridge;
beforeEach(() => {
  bridge = withFreshBridge();
  TREE = {
    '/': [entry('/', 'home', 'directory')],
    '/home': [entry('/home', 'u', 'directory')],
    '/home/u': [entry('/home/u', 'proj', 'directory'), entry('/home/u', 'a.txt')],
    '/home/u/proj': [entry('/home/u/proj', 'src', 'directory'), entry('/home/u/proj', 'main.c')],
  };
  useEnvironments.getState().upsert(makeEnv());
  bridge.handle('files.home', () => ({ home: '/home/u', cwd: '/home/u' }));
  bridge.handle('files.list', ({ path }) => ({ path, entries: [...(TREE[path] ?? [])] }));
  bridge.handle('files.preview', () => ({ kind: 'text', text: 'x', truncated: false, size: 1 }));
  bridge.handle('environments.setWorkspaceFolder', ({ id, path }) => makeEnv({ id, workspaceFolder: path }));
  const add = (path: string, kind: FileEntry['kind'] = 'file') => {
    const dir = path.slice(0, path.lastIndexOf('/'));
    TREE[dir] = [...(TREE[dir] ?? []), entry(dir, path.slice(dir.length + 1), kind)];
  };
  bridge.handle('files.createFile', ({ path }) => {
    add(path);
    return { ok: true };
  });
  bridge.handle('files.duplicate', ({ path }) => {
    const copy = path.replace(/(\.[^.]*)$/, ' (1)$1');
    add(copy);
    return { ok: true, path: copy };
  });
  bridge.handle('files.copy', ({ to, ifExists }) => {
    const taken = Object.values(TREE).some((list) => list.some((e) => e.path === to));
    if (taken && ifExists === 'fail') throw new IpcError('conflict', 'taken');
    const target = ifExists === 'keepBoth' ? to.replace(/(\.[^.]*)$/, ' (1)$1') : to;
    add(target);
    return { ok: true, path: target };
  });
  bridge.handle('files.rename', ({ from, to }) => {
    const dir = from.slice(0, from.lastIndexOf('/'));
    TREE[dir] = (TREE[dir] ?? []).filter((e) => e.path !== from);
    add(to);
    return { ok: true, path: to };
  });
});
afterEach(cleanup);

/** The Files view of the environment as the store has it (so its workspace folder follows). */
function Browser() {
  const env = useEnvironments((s) => s.byId['env-1']!);
  return <FileBrowser env={env} />;
}

async function openBrowser(first = 'a.txt') {
  render(<Browser />);
  const table = await screen.findByRole('table', { name: 'Folder contents' });
  await within(table).findByText(first);
  return { table, list: screen.getByRole('region', { name: 'Files' }) };
}

const tree = () => screen.getByRole('navigation', { name: 'Folder tree' });

describe('the workspace folder', () => {
  it('Open folder roots the tree and the list there; Close folder goes back home', async () => {
    const user = userEvent.setup();
    await openBrowser();
    await user.click(screen.getByRole('button', { name: 'Open folder…' }));
    const field = screen.getByRole('textbox', { name: 'Folder' });
    await user.clear(field);
    await user.type(field, '/home/u/proj{Enter}');
    expect(bridge.callsOf('environments.setWorkspaceFolder')).toEqual([
      { id: 'env-1', path: '/home/u/proj' },
    ]);
    const table = screen.getByRole('table', { name: 'Folder contents' });
    await within(table).findByText('main.c');
    // The tree's root is the folder itself, not "/".
    await waitFor(() => expect(within(tree()).getByRole('button', { name: 'proj' })).toBeTruthy());
    expect(within(tree()).queryByRole('button', { name: '/' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Close folder' }));
    expect(bridge.callsOf('environments.setWorkspaceFolder').at(-1)).toEqual({ id: 'env-1', path: null });
    await within(table).findByText('a.txt');
    await waitFor(() => expect(within(tree()).getByRole('button', { name: '/' })).toBeTruthy());
  });

  it('a remembered workspace folder is where the Files view opens', async () => {
    useEnvironments.getState().upsert(makeEnv({ workspaceFolder: '/home/u/proj' }));
    await openBrowser('main.c');
    expect(bridge.callsOf('files.home')).toEqual([]);
  });
});

describe('file operations', () => {
  it('New file creates it in the folder shown, and the list shows it', async () => {
    const user = userEvent.setup();
    const { table } = await openBrowser();
    await user.click(screen.getByRole('button', { name: 'New file' }));
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'fresh.md{Enter}');
    expect(bridge.callsOf('files.createFile')).toEqual([{ envId: 'env-1', path: '/home/u/fresh.md' }]);
    expect(await within(table).findByText('fresh.md')).toBeTruthy();
  });

  it('Ctrl+D duplicates; Ctrl+C, Ctrl+V asks about the taken name, and Keep both keeps both', async () => {
    const user = userEvent.setup();
    const { table, list } = await openBrowser();
    await user.click(within(table).getByText('a.txt'));
    list.focus();
    await user.keyboard('{Control>}d{/Control}');
    expect(bridge.callsOf('files.duplicate')).toEqual([{ envId: 'env-1', path: '/home/u/a.txt' }]);
    expect(await within(table).findByText('a (1).txt')).toBeTruthy();

    await user.click(within(table).getByText('a.txt'));
    list.focus();
    await user.keyboard('{Control>}c{/Control}{Control>}v{/Control}');
    const dialog = await screen.findByRole('dialog', { name: 'a.txt already exists' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep both' }));
    await waitFor(() =>
      expect(bridge.callsOf('files.copy').map((c) => c.ifExists)).toEqual(['fail', 'keepBoth']),
    );
  });

  it('Cut, then Paste into a folder moves the file there', async () => {
    const user = userEvent.setup();
    const { table } = await openBrowser();
    fireEvent.contextMenu(within(table).getByText('a.txt'));
    await user.click(screen.getByRole('menuitem', { name: /Cut/ }));
    fireEvent.contextMenu(within(table).getByText('proj'));
    await user.click(screen.getByRole('menuitem', { name: /Paste into/ }));
    await waitFor(() =>
      expect(bridge.callsOf('files.rename')).toEqual([
        { envId: 'env-1', from: '/home/u/a.txt', to: '/home/u/proj/a.txt', ifExists: 'fail' },
      ]),
    );
    await waitFor(() => expect(within(table).queryByText('a.txt')).toBeNull());
  });

  it('dragging a file onto a folder row moves it there', async () => {
    const { table } = await openBrowser();
    const { data, dataTransfer } = fakeDrag();
    const row = (name: string) => within(table).getByText(name).closest('tr')!;
    fireEvent.dragStart(row('a.txt'), { dataTransfer });
    expect(data.has(ENTRIES_DRAG_TYPE)).toBe(true);
    fireEvent.dragOver(row('proj'), { dataTransfer });
    fireEvent.drop(row('proj'), { dataTransfer });
    await waitFor(() =>
      expect(bridge.callsOf('files.rename')).toEqual([
        { envId: 'env-1', from: '/home/u/a.txt', to: '/home/u/proj/a.txt', ifExists: 'fail' },
      ]),
    );
  });

  it('dragging a file onto a folder of the tree moves it there', async () => {
    const { table } = await openBrowser();
    const { dataTransfer } = fakeDrag();
    fireEvent.dragStart(within(table).getByText('a.txt').closest('tr')!, { dataTransfer });
    const home = within(tree()).getByRole('button', { name: 'home' }).closest('.tree-row')!;
    fireEvent.dragOver(home, { dataTransfer });
    fireEvent.drop(home, { dataTransfer });
    await waitFor(() =>
      expect(bridge.callsOf('files.rename')).toEqual([
        { envId: 'env-1', from: '/home/u/a.txt', to: '/home/a.txt', ifExists: 'fail' },
      ]),
    );
  });
});

/** A DataTransfer that keeps what a drag start puts in it, for the drop to read. */
function fakeDrag() {
  const data = new Map<string, string>();
  const dataTransfer = {
    get types() {
      return [...data.keys()];
    },
    setData: (type: string, value: string) => data.set(type, value),
    getData: (type: string) => data.get(type) ?? '',
    effectAllowed: 'all',
    dropEffect: 'none',
  };
  return { data, dataTransfer };
}

describe('watching the open folder', () => {
  it('a file made elsewhere shows after the next listing, the cursor kept', async () => {
    const user = userEvent.setup();
    const { table } = await openBrowser();
    await user.click(within(table).getByText('a.txt'));
    act(() => {
      TREE['/home/u'] = [...TREE['/home/u']!, entry('/home/u', 'from-elsewhere.txt')];
    });
    expect(
      await within(table).findByText('from-elsewhere.txt', {}, { timeout: FOLDER_POLL_MS * 3 }),
    ).toBeTruthy();
    expect(within(table).getByText('a.txt').closest('tr')!.className).toContain('cursor');
  }, 20_000);

  it('lists a folder slow to list less often', () => {
    expect(folderPollDelay(50)).toBe(FOLDER_POLL_MS);
    expect(folderPollDelay(600)).toBe(6_000);
  });
});
