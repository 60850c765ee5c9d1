// A terminal pane as the user drives it (issue #14): closing it never leaves its shell running
// unseen without asking, Restart replaces the process (one row) and shows it in a pane (defect 11),
// and its context menu copies, pastes, selects, clears, searches and splits (defect 14).
import '../test/browser-stand-ins';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { envPanes, leaves, processIdOf, terminalContent, usePanes } from '../panes/panes-store';
import { useProcesses } from '../processes/processes-store';
import { useUi } from '../app/ui-store';
import { makeProcess, type FakeBridge } from '../test/fake-bridge';
import { withShellPane } from '../test/shell-pane';
import { App } from '../app/app';
import { fireEvent } from '@testing-library/react';
import { setHostKind } from '../ipc/host-kind';

let bridge: FakeBridge;
let stop: (() => void) | null = null;

beforeEach(async () => {
  ({ bridge, stop } = await withShellPane({
    settings: { scrollback: 5000, theme: 'light' },
    replay: () => 'hello-from-the-shell\r\n',
    handlers: (host) => host.handle('processes.signal', () => ({ ok: true })),
  }));
});
afterEach(() => {
  stop?.();
  cleanup();
});

const panesOf = () => envPanes(usePanes.getState().byEnv, 'env-1').tabs.flatMap((t) => leaves(t.root));

describe('closing a pane whose process runs', () => {
  it('asks, and "Terminate" ends the process and closes the pane', async () => {
    const user = userEvent.setup();
    render(<App />);
    fireEvent.contextMenu(screen.getByRole('tab', { name: /^1: bash/ }), { clientX: 20, clientY: 20 });
    await user.click(screen.getByRole('menuitem', { name: 'Close tab' }));
    const dialog = screen.getByRole('dialog', { name: 'bash is still running' });
    expect(panesOf()).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Terminate' }));
    await waitFor(() => expect(panesOf()).toHaveLength(0));
    expect(bridge.callsOf('processes.signal')).toEqual([
      { envId: 'env-1', processId: 'shell', signal: 'terminate' },
    ]);
  });

  it('"Keep running in the background" closes the pane and leaves the process alone', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Close pane' }));
    const dialog = screen.getByRole('dialog', { name: 'bash is still running' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep running in the background' }));
    expect(panesOf()).toHaveLength(0);
    expect(bridge.callsOf('processes.signal')).toEqual([]);
  });

  it('closes at once when the process has ended', async () => {
    const user = userEvent.setup();
    useProcesses.getState().upsert(makeProcess({ processId: 'shell', state: 'exited', exitCode: 0 }));
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Close pane' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(panesOf()).toHaveLength(0);
  });
});

describe('Restart in Processes', () => {
  it('replaces the row with the new process and opens a pane on it', async () => {
    const user = userEvent.setup();
    usePanes.getState().closePane('env-1', panesOf()[0]!.id);
    useProcesses.getState().upsert(makeProcess({ processId: 'shell', state: 'exited', exitCode: 1 }));
    // As the AppService does: the new process appears, the old one is removed, then the reply.
    bridge.handle('processes.restart', () => {
      const fresh = makeProcess({ processId: 'shell-2', title: 'bash' });
      bridge.emit('processes.changed', fresh);
      bridge.emit('processes.removed', { envId: 'env-1', processId: 'shell' });
      return fresh;
    });
    useUi.getState().showPanel('env-1', 'processes');
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Restart bash' }));
    await waitFor(() => expect(panesOf().map(processIdOf)).toEqual(['shell-2']));
    expect(useUi.getState().panelByEnv['env-1']).toBe('terminals');
    expect(Object.keys(useProcesses.getState().byKey)).toHaveLength(1);
  });

  it('moves an open pane to the new process instead of closing it', async () => {
    const user = userEvent.setup();
    bridge.handle('processes.restart', () => {
      const fresh = makeProcess({ processId: 'shell-2', title: 'bash' });
      bridge.emit('processes.changed', fresh);
      bridge.emit('processes.removed', { envId: 'env-1', processId: 'shell' });
      return fresh;
    });
    const paneId = panesOf()[0]!.id;
    useUi.getState().showPanel('env-1', 'processes');
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Restart bash' }));
    // The same pane (and so its place in a split layout) now shows the new process.
    await waitFor(() =>
      expect(panesOf()).toEqual([{ type: 'leaf', id: paneId, content: terminalContent('shell-2') }]),
    );
  });
});

describe('the terminal context menu', () => {
  it('offers every terminal action, and Copy after Select all puts the text on the clipboard', async () => {
    const user = userEvent.setup();
    bridge.handle('processes.write', () => ({ ok: true }));
    render(<App />);
    const mount = document.querySelector('.terminal-mount')!;
    await waitFor(() => expect(mount.textContent).toContain('hello-from-the-shell'));
    fireEvent.contextMenu(mount, { clientX: 40, clientY: 40 });
    const menu = screen.getByRole('menu', { name: 'Terminal' });
    const items = within(menu)
      .getAllByRole('menuitem')
      .map((i) => i.textContent);
    expect(items).toEqual([
      'CopyCtrl+Shift+C',
      'PasteCtrl+Shift+V',
      'Select all',
      'Clear',
      'SearchCtrl+Shift+F',
      'Split rightCtrl+Shift+D',
      'Split downCtrl+Shift+S',
      'Close paneCtrl+Shift+W',
    ]);
    // Nothing selected yet: Copy is there but disabled.
    expect(within(menu).getByRole('menuitem', { name: 'Copy' }).hasAttribute('disabled')).toBe(true);
    await user.click(within(menu).getByRole('menuitem', { name: 'Select all' }));
    expect(screen.queryByRole('menu')).toBeNull();

    fireEvent.contextMenu(mount, { clientX: 40, clientY: 40 });
    await user.click(screen.getByRole('menuitem', { name: 'Copy' }));
    await waitFor(async () => expect(await navigator.clipboard.readText()).toContain('hello-from-the-shell'));

    await navigator.clipboard.writeText('pasted-text');
    fireEvent.contextMenu(mount, { clientX: 40, clientY: 40 });
    await user.click(screen.getByRole('menuitem', { name: 'Paste' }));
    await waitFor(() => expect(bridge.writtenText().join('')).toContain('pasted-text'));
  });

  it('is reachable from the keyboard and closes with Escape', async () => {
    const user = userEvent.setup();
    render(<App />);
    const mount = document.querySelector('.terminal-mount')!;
    // Shift+F10 / the menu key fire a contextmenu event at 0,0 on the focused element.
    fireEvent.contextMenu(mount, { clientX: 0, clientY: 0 });
    const menu = screen.getByRole('menu', { name: 'Terminal' });
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Paste' }));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Select all' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('shows the keys of this host in its items and the header tooltips (a browser tab has its own)', () => {
    setHostKind('web');
    try {
      render(<App />);
      expect(screen.getByRole('button', { name: 'Search' }).getAttribute('title')).toBe(
        'Search (Ctrl+Shift+F)',
      );
      expect(screen.getByRole('button', { name: 'Close pane' }).getAttribute('title')).toBe(
        'Close pane (Alt+Shift+W)',
      );
      fireEvent.contextMenu(document.querySelector('.terminal-mount')!, { clientX: 40, clientY: 40 });
      const items = within(screen.getByRole('menu', { name: 'Terminal' }))
        .getAllByRole('menuitem')
        .map((i) => i.textContent);
      expect(items).toContain('Close paneAlt+Shift+W');
    } finally {
      setHostKind('electron');
    }
  });
});

describe('a pane that opens behind a dialog', () => {
  it('leaves the keyboard focus in the dialog (a first shell starting while a form is filled in)', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(screen.getAllByRole('button', { name: 'Add environment' })[0]!);
    const dialog = screen.getByRole('dialog', { name: 'Add environment' });
    const name = within(dialog).getByLabelText('Name');
    await user.click(name);
    expect(document.activeElement).toBe(name);
    useProcesses.getState().upsert(makeProcess({ envId: 'env-1', processId: 'late-shell' }));
    usePanes.getState().openTab('env-1', terminalContent('late-shell'));
    await waitFor(() => expect(panesOf().map(processIdOf)).toContain('late-shell'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(document.activeElement).toBe(name);
    await user.keyboard('Lab box');
    expect(name).toHaveProperty('value', 'Lab box');
  });
});
