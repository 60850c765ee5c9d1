// Pane kinds (pane-kinds.tsx) as the app drives them: one tab holds a terminal and an editor side
// by side, each drawn by its own kind; the tab is named by its focused pane's kind; a terminal's
// xterm is freed once no pane shows its process, and a process that goes takes its panes only.
import '../test/browser-stand-ins';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import type { EditorFile } from '../../shared/ipc';
import { startApp } from '../app/start-app';
import { envPanes, leaves, terminalContent, usePanes, type PaneContent } from './panes-store';
import { DEFAULT_SETTINGS } from '../settings/settings-store';
import { terminalFor } from '../terminals/xterm/terminal-registry';
import { makeEnv, makeProcess, type FakeBridge } from '../test/fake-bridge';
import { withTwoEnvironments } from '../test/two-environments';
import { App } from '../app/app';
import { useEditors } from '../editor/editors-store';

const notes: PaneContent = { kind: 'editor', environmentId: 'env-1', path: '/home/u/notes.txt' };
const file: EditorFile = {
  kind: 'text',
  path: '/home/u/notes.txt',
  text: 'one\n',
  bom: false,
  version: { size: 4, modifiedAtMs: 1_700_000_000_000, sha256: 'a'.repeat(64) },
};

let bridge: FakeBridge;
let stop: (() => void) | null = null;

beforeEach(async () => {
  bridge = withTwoEnvironments();
  bridge
    .handle('environments.list', () => [makeEnv()])
    .handle('settings.get', () => DEFAULT_SETTINGS)
    .handle('transfers.list', () => [])
    .handle('app.notices', () => [])
    .handle('processes.list', () => [
      makeProcess({ processId: 'p1', title: 'bash' }),
      makeProcess({ processId: 'p2', title: 'top' }),
    ])
    .handle('processes.replay', () => ({ events: [], lastSeq: 0, shownThroughSeq: 0 }))
    .handle('processes.resize', () => ({ applied: true }))
    .handle('processes.ack', () => ({ ok: true }))
    .handle('layout.save', () => ({ ok: true }))
    .handle('editor.open', () => file);
  stop = await startApp();
  usePanes.getState().openTab('env-1', terminalContent('p1'));
  const tab = envPanes(usePanes.getState().byEnv, 'env-1').tabs[0]!;
  usePanes.getState().split('env-1', tab.focusedPaneId, 'horizontal', notes);
});
afterEach(() => {
  stop?.();
  cleanup();
});

const strip = () => within(screen.getByRole('tablist', { name: 'Terminal tabs' }));
const panes = () => envPanes(usePanes.getState().byEnv, 'env-1').tabs.map((t) => leaves(t.root));

describe('pane kinds', () => {
  it('draws a terminal and an editor in one tab, and names the tab after the focused pane', async () => {
    render(<App />);
    expect(screen.getByRole('region', { name: 'Terminal bash' })).toBeTruthy();
    const editor = screen.getByRole('region', { name: 'Editor notes.txt' });
    // The split focused the new pane, the editor: it names the tab.
    expect(strip().getByRole('tab', { name: /^1: notes\.txt/ })).toBeTruthy();
    act(() => usePanes.getState().focusPane('env-1', panes()[0]![0]!.id));
    expect(strip().getByRole('tab', { name: /^1: bash/ })).toBeTruthy();

    // After a restart the file is not open yet: the pane reads it when it first shows, once.
    expect(bridge.callsOf('editor.open')).toEqual([{ envId: 'env-1', path: '/home/u/notes.txt' }]);
    // Loading the file pulls in CodeMirror's chunk, slow on a busy machine: a bound, not a timing.
    expect(await within(editor).findByRole('button', { name: /Save/ }, { timeout: 20_000 })).toBeTruthy();
    // The layout the host stores holds both kinds.
    const saved = bridge.callsOf('layout.save').at(-1)!;
    expect(leaves(saved.byEnv['env-1']!.tabs[0]!.root).map((l) => l.content)).toEqual([
      terminalContent('p1'),
      notes,
    ]);
  });

  it('frees a terminal no pane shows, and a process that goes closes only its own panes', () => {
    usePanes.getState().openTab('env-1', terminalContent('p2'));
    const shell = terminalFor({ envId: 'env-1', processId: 'p1' }, DEFAULT_SETTINGS);
    const top = terminalFor({ envId: 'env-1', processId: 'p2' }, DEFAULT_SETTINGS);
    const topTab = envPanes(usePanes.getState().byEnv, 'env-1').tabs[1]!;
    act(() => usePanes.getState().closePane('env-1', topTab.root.id));
    // A new xterm for p2 means the old one was disposed; p1's, still shown, is the same.
    expect(terminalFor({ envId: 'env-1', processId: 'p2' }, DEFAULT_SETTINGS)).not.toBe(top);
    expect(terminalFor({ envId: 'env-1', processId: 'p1' }, DEFAULT_SETTINGS)).toBe(shell);

    act(() => bridge.emit('processes.removed', { envId: 'env-1', processId: 'p1' }));
    expect(panes().map((tab) => tab.map((l) => l.content))).toEqual([[notes]]);
  });

  it('frees the document of an editor pane that closes', async () => {
    render(<App />);
    const editor = screen.getByRole('region', { name: 'Editor notes.txt' });
    await within(editor).findByRole('button', { name: /Save/ }, { timeout: 20_000 });
    expect(useEditors.getState().tabs.map((t) => t.path)).toEqual(['/home/u/notes.txt']);
    act(() => usePanes.getState().closePane('env-1', panes()[0]![1]!.id));
    expect(useEditors.getState().tabs).toEqual([]);
  });
});
