// The editor as a user meets it: Enter / double-click / *Edit* in Files open a file in an editor
// pane, a tab of the main area beside the terminals (a second time focuses that pane), the dot on
// the tab marks unsaved changes, Ctrl+S saves the file's own bytes (CRLF, byte-order mark),
// closing a changed editor (its own button or its tab) asks save / discard / cancel, a conflict
// shows both versions and its choices work, a save while the link is down is tried again once it
// is back, and binary or huge files are refused or shown read-only with the reason.
import '../test/browser-stand-ins';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EditorView } from 'codemirror';
import type { EditorFile, EditVersion, FileEntry } from '../../shared/ipc';
import { EDITOR_SAVE_CHUNK_BYTES, IpcError } from '../../shared/ipc';
import { openEditor } from './editor-actions';
import { appCommands } from '../palette/commands';
import { guardUnsavedEdits } from './unsaved-guard';
import { setHostKind } from '../ipc/host-kind';
import { useFiles } from '../files/files-store';
import { useUi } from '../app/ui-store';
import { useEditors } from './editors-store';
import { useEnvironments } from '../environments/environments-store';
import { decodeBase64 } from '../terminals/xterm/base64';
import { makeEnv, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { FileBrowser } from '../files/file-browser';
import { TerminalsPanel } from '../terminals/terminals-panel';
import { envPanes, leaves, usePanes } from '../panes/panes-store';
import { retainShownContent } from '../panes/pane-kinds';
import { renameEntry } from '../files/file-actions';
import { moveInto } from '../files/workspace-actions';

const ENV = 'env-1';
const version = (sha: string, size = 10): EditVersion => ({
  size,
  modifiedAtMs: 1_700_000_000_000,
  sha256: sha.repeat(64),
});
const text = (path: string, body: string, bom = false, sha = 'a'): EditorFile => ({
  kind: 'text',
  path,
  text: body,
  bom,
  version: version(sha, body.length),
});

let bridge: FakeBridge;
let files: Record<string, EditorFile>;
let stopRetaining: () => void;
beforeEach(() => {
  // As start-app.ts does: a pane that closes frees its document.
  stopRetaining = usePanes.subscribe((state) => retainShownContent(state.byEnv));
  bridge = withFreshBridge();
  useEnvironments.getState().upsert(makeEnv({ id: ENV }));
  files = { '/home/u/notes.txt': text('/home/u/notes.txt', 'one\r\ntwo\r\n', true) };
  bridge.handle('editor.open', ({ path }) => {
    const file = files[path];
    if (!file) throw new IpcError('notFound', `${path} does not exist`);
    return file;
  });
  bridge.handle('editor.save', ({ path }) => ({ kind: 'saved', path, version: version('b') }));
});
afterEach(() => {
  cleanup();
  stopRetaining();
});

/** The main area: the strip of tabs (terminals and editors) and the active tab's panes. */
function MainArea() {
  return <TerminalsPanel env={makeEnv({ id: ENV })} />;
}

const tabStrip = () => screen.getByRole('tablist', { name: 'Terminal tabs' });

/** Every editor pane of the environment, by the file it shows. */
const editorPanes = () =>
  envPanes(usePanes.getState().byEnv, ENV).tabs.flatMap((t) =>
    leaves(t.root).flatMap((l) => (l.content.kind === 'editor' ? [l.content.path] : [])),
  );

async function openInArea(path = '/home/u/notes.txt') {
  render(<MainArea />);
  await act(() => openEditor(ENV, path));
  const tab = await screen.findByRole('tab', { name: new RegExp(path.split('/').pop()!) });
  // CodeMirror comes in a chunk of its own; the view mounts once it is there.
  return { tab, view: await waitFor(viewOf) };
}

function fileEntry(name: string): FileEntry {
  return {
    name,
    path: `/home/u/${name}`,
    kind: 'file',
    size: 10,
    modifiedAtMs: 1_700_000_000_000,
    hidden: false,
  };
}

function viewOf(): EditorView {
  const content = document.querySelector('.cm-content');
  if (!content) throw new Error('no editor on screen');
  const view = EditorView.findFromDOM(content as HTMLElement);
  if (!view) throw new Error('no view');
  return view;
}

function type(view: EditorView, at: number, insert: string) {
  act(() => view.dispatch({ changes: { from: at, insert } }));
}

const savedBytes = () =>
  new TextDecoder('utf-8', { ignoreBOM: true }).decode(
    decodeBase64(bridge.callsOf('editor.save').at(-1)!.dataBase64 ?? ''),
  );

describe('the dirty marker', () => {
  it('shows while the text differs from the file and goes when it is the same again', async () => {
    const { tab, view } = await openInArea();
    expect(within(tab).queryByLabelText('unsaved changes')).toBeNull();
    type(view, 0, 'zero ');
    expect(within(tab).getByLabelText('unsaved changes')).toBeTruthy();
    act(() => view.dispatch({ changes: { from: 0, to: 5 } }));
    expect(within(tab).queryByLabelText('unsaved changes')).toBeNull();
  });
});

describe('saving', () => {
  it('Ctrl+S writes the file with its CRLF and byte-order mark, against the version opened', async () => {
    const { tab, view } = await openInArea();
    bridge.handle('files.list', ({ path }) => ({ path, entries: [fileEntry('notes.txt')] }));
    act(() => useFiles.getState().patch(ENV, { path: '/home/u' }));
    type(view, view.state.doc.length, 'three');
    fireEvent.keyDown(view.contentDOM, { key: 's', ctrlKey: true });
    await waitFor(() => expect(bridge.callsOf('editor.save')).toHaveLength(1));
    const call = bridge.callsOf('editor.save')[0]!;
    expect(call).toMatchObject({
      envId: ENV,
      path: '/home/u/notes.txt',
      mode: 'ifUnchanged',
      base: version('a', 10),
    });
    expect(savedBytes()).toBe('\uFEFFone\r\ntwo\r\nthree');
    await waitFor(() => expect(within(tab).queryByLabelText('unsaved changes')).toBeNull());
    // The folder Files shows is listed again, so it shows the new size.
    await waitFor(() => expect(bridge.callsOf('files.list').map((c) => c.path)).toContain('/home/u'));
    expect(screen.getByRole('status').textContent).toMatch(/^Saved at/);
    // The next save checks against what this one wrote.
    type(view, 0, '!');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(bridge.callsOf('editor.save')).toHaveLength(2));
    expect(bridge.callsOf('editor.save')[1]!.base).toEqual(version('b'));
  });

  it('a save while the link is down waits, says so, and goes through once the link is back', async () => {
    let fail = true;
    bridge.handle('editor.save', ({ path }) => {
      if (fail) throw new IpcError('disconnected', 'the link to Build box is down');
      return { kind: 'saved', path, version: version('b') };
    });
    const { tab, view } = await openInArea();
    type(view, 0, 'x');
    act(() =>
      useEnvironments
        .getState()
        .upsert(makeEnv({ id: ENV, link: { kind: 'reconnecting', since: 0, attempt: 1 } })),
    );
    fireEvent.keyDown(view.contentDOM, { key: 's', ctrlKey: true });
    expect(await screen.findByText(/Saving again once the link is back/)).toBeTruthy();
    expect(within(tab).getByLabelText('unsaved changes')).toBeTruthy();
    fail = false;
    act(() => useEnvironments.getState().upsert(makeEnv({ id: ENV })));
    await waitFor(() => expect(bridge.callsOf('editor.save')).toHaveLength(2));
    await waitFor(() => expect(within(tab).queryByLabelText('unsaved changes')).toBeNull());
  });
});

describe('closing a tab with unsaved changes', () => {
  it('asks; Cancel keeps it, Discard closes it without saving', async () => {
    const user = userEvent.setup();
    const { view } = await openInArea();
    type(view, 0, 'x');
    await user.click(screen.getByRole('button', { name: 'Close notes.txt' }));
    const dialog = screen.getByRole('dialog', { name: 'Save changes to notes.txt?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('tab', { name: /notes\.txt/ })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Close notes.txt' }));
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    expect(screen.queryByRole('tab')).toBeNull();
    expect(bridge.callsOf('editor.save')).toHaveLength(0);
  });

  it('Save saves, then closes; an unchanged tab closes without asking', async () => {
    const user = userEvent.setup();
    files['/home/u/b.txt'] = text('/home/u/b.txt', 'b\n');
    const { view } = await openInArea();
    type(view, 0, 'x');
    await user.click(screen.getByRole('button', { name: 'Close notes.txt' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('tab', { name: /notes\.txt/ })).toBeNull());
    expect(savedBytes()).toBe('\uFEFFxone\r\ntwo\r\n');
    await act(() => openEditor(ENV, '/home/u/b.txt'));
    await user.click(await screen.findByRole('button', { name: 'Close b.txt' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('tab')).toBeNull();
  });
});

describe('a conflict on save', () => {
  beforeEach(() => {
    bridge.handle('editor.save', ({ path, mode }) =>
      mode === 'ifUnchanged'
        ? { kind: 'conflict', theirs: text(path, 'one\r\nTWO\r\n', true, 'c') }
        : { kind: 'saved', path: mode === 'copy' ? '/home/u/notes (1).txt' : path, version: version('d') },
    );
  });

  it('shows their and my lines; Take theirs puts their text in, clean', async () => {
    const user = userEvent.setup();
    const { tab, view } = await openInArea();
    type(view, view.state.doc.length, 'mine\r\n');
    fireEvent.keyDown(view.contentDOM, { key: 's', ctrlKey: true });
    const conflict = await screen.findByRole('region', { name: /changed on the server/ });
    const diff = within(conflict).getByRole('table', { name: /Differences/ });
    expect(within(diff).getByText('− TWO')).toBeTruthy();
    expect(within(diff).getByText('+ two')).toBeTruthy();
    expect(within(diff).getByText('+ mine')).toBeTruthy();
    await user.click(within(conflict).getByRole('button', { name: 'Take theirs' }));
    expect(screen.queryByRole('region', { name: /changed on the server/ })).toBeNull();
    expect(viewOf().state.doc.toString()).toBe('one\nTWO\n');
    expect(within(tab).queryByLabelText('unsaved changes')).toBeNull();
  });

  it('Overwrite with mine and Save mine as a copy save with their modes; a copy renames the tab', async () => {
    const user = userEvent.setup();
    const { view } = await openInArea();
    type(view, 0, 'x');
    fireEvent.keyDown(view.contentDOM, { key: 's', ctrlKey: true });
    await user.click(await screen.findByRole('button', { name: 'Overwrite with mine' }));
    await waitFor(() => expect(bridge.callsOf('editor.save').at(-1)?.mode).toBe('overwrite'));
    await waitFor(() => expect(screen.queryByRole('region', { name: /changed on the server/ })).toBeNull());
    type(view, 0, 'y');
    fireEvent.keyDown(view.contentDOM, { key: 's', ctrlKey: true });
    await user.click(await screen.findByRole('button', { name: 'Save mine as a copy' }));
    expect(await screen.findByRole('tab', { name: /notes \(1\)\.txt/ })).toBeTruthy();
    expect(bridge.callsOf('editor.save').at(-1)?.mode).toBe('copy');
  });

  it('a deleted file is only written again on Recreate', async () => {
    const user = userEvent.setup();
    bridge.handle('editor.save', ({ path, mode }) =>
      mode === 'recreate' ? { kind: 'saved', path, version: version('e') } : { kind: 'deleted' },
    );
    const { view } = await openInArea();
    type(view, 0, 'x');
    fireEvent.keyDown(view.contentDOM, { key: 's', ctrlKey: true });
    const notice = await screen.findByRole('region', { name: 'notes.txt was deleted' });
    await user.click(within(notice).getByRole('button', { name: 'Recreate it' }));
    await waitFor(() => expect(bridge.callsOf('editor.save').at(-1)?.mode).toBe('recreate'));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'notes.txt was deleted' })).toBeNull());
  });
});

describe('files the editor will not edit', () => {
  it('a binary file: the reason and a download, no editor', async () => {
    files['/home/u/a.bin'] = {
      kind: 'binary',
      path: '/home/u/a.bin',
      size: 2048,
      reason: 'This file cannot be edited: it contains NUL bytes. Download it instead.',
    };
    render(<MainArea />);
    await act(() => openEditor(ENV, '/home/u/a.bin'));
    const note = await screen.findByRole('note');
    expect(note.textContent).toContain('it contains NUL bytes');
    expect(within(note).getByRole('button', { name: 'Download' })).toBeTruthy();
    expect(document.querySelector('.cm-content')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('a huge text file: its start, read-only, with the reason', async () => {
    files['/home/u/big.log'] = {
      kind: 'preview',
      path: '/home/u/big.log',
      text: 'start of it',
      size: 9_000_000,
      reason: "It is larger than the editor's limit of 5 MiB.",
    };
    render(<MainArea />);
    await act(() => openEditor(ENV, '/home/u/big.log'));
    expect((await screen.findByRole('note')).textContent).toContain('Read-only');
    const view = await waitFor(viewOf);
    expect(view.state.readOnly).toBe(true);
    expect(view.state.doc.toString()).toBe('start of it');
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});

describe('opening from the file browser', () => {
  const entry = (name: string, kind: FileEntry['kind'] = 'file'): FileEntry => ({
    name,
    path: `/home/u/${name}`,
    kind,
    size: kind === 'directory' ? null : 10,
    modifiedAtMs: 1_700_000_000_000,
    hidden: false,
  });

  beforeEach(() => {
    bridge.handle('files.home', () => ({ home: '/home/u', cwd: '/home/u' }));
    bridge.handle('files.list', ({ path }) => ({
      path,
      entries: path === '/home/u' ? [entry('src', 'directory'), entry('notes.txt'), entry('b.txt')] : [],
    }));
    bridge.handle('files.preview', () => ({ kind: 'text', text: 'x', truncated: false, size: 1 }));
    files['/home/u/b.txt'] = text('/home/u/b.txt', 'b\n');
  });

  it('Enter and double-click open a file in an editor pane, a second time its tab; Edit is in the menu', async () => {
    const user = userEvent.setup();
    render(
      <>
        <FileBrowser env={makeEnv({ id: ENV })} />
        <MainArea />
      </>,
    );
    const table = await screen.findByRole('table', { name: 'Folder contents' });
    await within(table).findByText('notes.txt');
    screen.getByRole('region', { name: 'Files' }).focus();
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{Enter}');
    expect(await screen.findByRole('tab', { name: /notes\.txt/ })).toBeTruthy();
    await user.dblClick(within(table).getByText('b.txt'));
    expect(await screen.findByRole('tab', { name: /b\.txt/, selected: true })).toBeTruthy();
    await user.dblClick(within(table).getByText('notes.txt'));
    await waitFor(() =>
      expect(screen.getByRole('tab', { name: /notes\.txt/ }).getAttribute('aria-selected')).toBe('true'),
    );
    expect(within(tabStrip()).getAllByRole('tab')).toHaveLength(2);
    expect(editorPanes()).toEqual(['/home/u/notes.txt', '/home/u/b.txt']);
    expect(bridge.callsOf('editor.open')).toHaveLength(2);
    expect(useUi.getState().panelByEnv[ENV]).toBe('terminals');
    // A link to a file that is open already shows that file's tab, and no second pane.
    files['/home/u/link.txt'] = text('/home/u/b.txt', 'b\n');
    await act(() => openEditor(ENV, '/home/u/link.txt'));
    expect(within(tabStrip()).getAllByRole('tab')).toHaveLength(2);
    expect(editorPanes()).toEqual(['/home/u/notes.txt', '/home/u/b.txt']);
    expect(screen.getByRole('tab', { name: /b\.txt/ }).getAttribute('aria-selected')).toBe('true');
    expect(document.querySelectorAll('.cm-content')).toHaveLength(1);
    fireEvent.contextMenu(within(table).getByText('b.txt'));
    expect(screen.getByRole('menuitem', { name: /Edit/ })).toBeTruthy();
    expect(useEditors.getState().tabs.map((t) => t.name)).toEqual(['notes.txt', 'b.txt']);
  });
});

describe('the preview beside the list', () => {
  beforeEach(() => {
    bridge.handle('files.home', () => ({ home: '/home/u', cwd: '/home/u' }));
    bridge.handle('files.list', ({ path }) => ({
      path,
      entries: path === '/home/u' ? ['notes.txt', 'b.txt'].map(fileEntry) : [],
    }));
    bridge.handle('files.preview', ({ path }) => ({
      kind: 'text',
      text: `preview of ${path}`,
      truncated: false,
      size: 1,
    }));
    files['/home/u/b.txt'] = text('/home/u/b.txt', 'b\n');
  });

  it('stays in the Files view while files are open in editor panes', async () => {
    const user = userEvent.setup();
    render(<FileBrowser env={makeEnv({ id: ENV })} />);
    const table = await screen.findByRole('table', { name: 'Folder contents' });
    await user.dblClick(await within(table).findByText('b.txt'));
    await waitFor(() => expect(editorPanes()).toEqual(['/home/u/b.txt']));
    await user.click(within(table).getByText('notes.txt'));
    const preview = await screen.findByRole('complementary', { name: 'Preview of notes.txt' });
    await within(preview).findByText('preview of /home/u/notes.txt');
    expect(document.querySelector('.cm-content')).toBeNull();
  });
});

describe('the editor pane in the main area', () => {
  it('closing its tab with unsaved changes asks first; Discard closes tab and file', async () => {
    const user = userEvent.setup();
    const { tab, view } = await openInArea();
    type(view, 0, 'x');
    fireEvent.keyDown(tab, { key: 'Delete' });
    const dialog = screen.getByRole('dialog', { name: 'Save changes to notes.txt?' });
    expect(editorPanes()).toEqual(['/home/u/notes.txt']);
    await user.click(within(dialog).getByRole('button', { name: 'Discard' }));
    expect(editorPanes()).toEqual([]);
    expect(useEditors.getState().tabs).toEqual([]);
    expect(screen.queryByRole('tab')).toBeNull();
  });

  it('an unchanged editor closes with its tab, and its file is opened again afresh', async () => {
    const { tab } = await openInArea();
    fireEvent.keyDown(tab, { key: 'Delete' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(useEditors.getState().tabs).toEqual([]);
    await act(() => openEditor(ENV, '/home/u/notes.txt'));
    expect(bridge.callsOf('editor.open')).toHaveLength(2);
  });

  it('shares its tab with a shell beside it and can be maximized', async () => {
    const user = userEvent.setup();
    bridge.handle('processes.start', ({ cwd }) => ({
      envId: ENV,
      processId: 'p-1',
      argv: ['sh'],
      title: 'sh',
      cwd: cwd ?? '/',
      tty: true,
      state: 'running',
      pid: 1,
      exitCode: null,
      failure: null,
      startedAt: 0,
      endedAt: null,
      size: null,
      resizable: true,
    }));
    await openInArea();
    await user.click(screen.getByRole('button', { name: 'Split right' }));
    await waitFor(() => expect(bridge.callsOf('processes.start')).toHaveLength(1));
    expect(bridge.callsOf('processes.start')[0]).toMatchObject({ cwd: '/home/u' });
    const editorPane = screen.getByRole('region', { name: 'Editor notes.txt' });
    await user.click(within(editorPane).getByRole('button', { name: 'Maximize pane' }));
    const tab = envPanes(usePanes.getState().byEnv, ENV).tabs[0]!;
    expect(tab.maximizedPaneId).toBe(tab.focusedPaneId);
    expect(leaves(tab.root).find((l) => l.id === tab.maximizedPaneId)?.content.kind).toBe('editor');
  });

  it('follows its file when it is renamed or its folder moved in Files, and saves to the new path', async () => {
    bridge.handle('files.rename', ({ to }) => ({ ok: true, path: to }));
    bridge.handle('files.home', () => ({ home: '/home/u', cwd: '/home/u' }));
    bridge.handle('files.list', ({ path }) => ({ path, entries: [] }));
    const { view } = await openInArea();
    await act(() => renameEntry(ENV, '/home/u/notes.txt', 'renamed.txt'));
    expect(editorPanes()).toEqual(['/home/u/renamed.txt']);
    expect(await within(tabStrip()).findByRole('tab', { name: /renamed\.txt/ })).toBeTruthy();
    await act(() => moveInto(ENV, ['/home/u'], '/srv'));
    expect(editorPanes()).toEqual(['/srv/u/renamed.txt']);
    type(view, 0, 'x');
    fireEvent.keyDown(view.contentDOM, { key: 's', ctrlKey: true });
    await waitFor(() => expect(bridge.callsOf('editor.save')).toHaveLength(1));
    expect(bridge.callsOf('editor.save')[0]).toMatchObject({ path: '/srv/u/renamed.txt' });
  });

  it('a pane restored with the layout reads its file when it shows', async () => {
    act(() =>
      usePanes.getState().openTab(ENV, { kind: 'editor', environmentId: ENV, path: '/home/u/notes.txt' }),
    );
    render(<MainArea />);
    const view = await waitFor(viewOf);
    expect(view.state.doc.toString()).toBe('one\ntwo\n');
    expect(bridge.callsOf('editor.open')).toEqual([{ envId: ENV, path: '/home/u/notes.txt' }]);
  });
});

describe('saving a large file', () => {
  it('sends it in chunks in order, then saves them as one', async () => {
    const body = 'x'.repeat(EDITOR_SAVE_CHUNK_BYTES * 2 + 1000);
    files['/home/u/big.txt'] = text('/home/u/big.txt', body);
    bridge.handle('editor.beginSave', () => ({ saveId: 'save-1' }));
    bridge.handle('editor.saveChunk', () => ({ ok: true }));
    const { view } = await openInArea('/home/u/big.txt');
    type(view, 0, 'é');
    fireEvent.keyDown(view.contentDOM, { key: 's', ctrlKey: true });
    await waitFor(() => expect(bridge.callsOf('editor.save')).toHaveLength(1));
    const expected = new TextEncoder().encode(`é${body}`);
    expect(bridge.callsOf('editor.beginSave')).toEqual([{ envId: ENV, totalBytes: expected.byteLength }]);
    const chunks = bridge.callsOf('editor.saveChunk');
    expect(chunks.map((c) => c.offset)).toEqual([0, 1, 2].map((i) => i * EDITOR_SAVE_CHUNK_BYTES));
    const sent = Buffer.concat(chunks.map((c) => decodeBase64(c.dataBase64)));
    expect(sent.equals(expected)).toBe(true);
    expect(bridge.callsOf('editor.save')[0]).toMatchObject({ saveId: 'save-1', path: '/home/u/big.txt' });
    expect(bridge.callsOf('editor.save')[0]!.dataBase64 ?? '').toBe('');
  });
});

describe('unsaved edits outside the editor', () => {
  afterEach(() => setHostKind('electron'));

  it('a browser tab asks before it unloads while a file has unsaved changes', async () => {
    setHostKind('web');
    const off = guardUnsavedEdits();
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    try {
      const { view } = await openInArea();
      expect(unload()).toBe(false);
      type(view, 0, 'x');
      expect(unload()).toBe(true);
    } finally {
      off();
    }
  });

  it('the palette edits the selected file and saves the open one', async () => {
    render(<MainArea />);
    useUi.getState().selectEnv(ENV);
    useFiles.getState().patch(ENV, {
      path: '/home/u',
      entries: [
        {
          name: 'notes.txt',
          path: '/home/u/notes.txt',
          kind: 'file',
          size: 10,
          modifiedAtMs: null,
          hidden: false,
        },
      ],
      selected: '/home/u/notes.txt',
    });
    const run = (id: string) =>
      act(() =>
        appCommands()
          .find((c) => c.id === id)!
          .run(),
      );
    run('editFile');
    expect(await screen.findByRole('tab', { name: /notes\.txt/ })).toBeTruthy();
    expect(useUi.getState().panelByEnv[ENV]).toBe('terminals');
    type(await waitFor(viewOf), 0, 'x');
    run('saveFile');
    await waitFor(() => expect(bridge.callsOf('editor.save')).toHaveLength(1));
  });
});
