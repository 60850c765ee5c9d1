// Quick open and Find in files in the App against a fake host: the workspace root is the Files
// view's folder, Quick open ranks the host's listing as you type and opens the best file on Enter;
// Find in files sends its options, shows remote text as text with the matches marked, says how many
// more it did not show, and a click opens the editor at the line; a new search cancels the running one.
import '../test/browser-stand-ins';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FakeBridge } from '../test/fake-bridge';
import { withTwoEnvironments } from '../test/two-environments';
import { App } from '../app/app';
import { useFiles } from '../files/files-store';
import { useUi } from '../app/ui-store';
import type { TextSearchResult } from '../../shared/ipc';

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withTwoEnvironments();
  bridge.handle('editor.open', ({ path }) => ({ kind: 'binary', path, size: 1, reason: 'test' }));
  useFiles.getState().patch('env-1', { path: '/srv/app' });
});
afterEach(cleanup);

describe('Quick open', () => {
  it('lists the workspace from the host, ranks it as you type and opens the best file on Enter', async () => {
    const user = userEvent.setup();
    bridge.handle('search.files', ({ root }) => ({
      root,
      files: ['docs/server.md', 'src/server/server-main.ts', 'src/side.ts'],
      truncated: true,
      source: 'rg',
      listedAt: 1,
    }));
    render(<App />);
    await user.keyboard('{Control>}p{/Control}');
    expect(bridge.callsOf('search.files')).toEqual([{ envId: 'env-1', root: '/srv/app', refresh: false }]);
    expect(await screen.findByText(/3 files in/)).toBeTruthy();
    expect(screen.getByText(/too large to list whole/)).toBeTruthy();
    await user.type(screen.getByRole('combobox', { name: 'Quick open' }), 'srvmain');
    const options = screen.getAllByRole('option');
    expect(options[0]!.textContent).toMatch(/^server-main\.ts/);
    expect(options.map((o) => o.textContent)).not.toContain('side.tssrc');
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Enter}');
    expect(bridge.callsOf('editor.open')).toEqual([
      { envId: 'env-1', path: '/srv/app/src/server/server-main.ts' },
    ]);
    // The editor is a main-area tab: the Terminals panel comes forward with it.
    expect(useUi.getState().panelByEnv['env-1']).toBe('terminals');

    // Refresh asks the host for a fresh listing.
    await user.keyboard('{Control>}p{/Control}');
    await user.click(await screen.findByRole('button', { name: 'Refresh the file list' }));
    expect(bridge.callsOf('search.files').at(-1)).toEqual({
      envId: 'env-1',
      root: '/srv/app',
      refresh: true,
    });
  });
});

describe('Find in files', () => {
  const HOSTILE = '<b>bold</b>.txt';
  const result: TextSearchResult = {
    tool: 'grep',
    files: [
      { path: `/srv/app/${HOSTILE}`, matches: [{ line: 7, text: 'x <i>quokka</i> y', ranges: [[5, 11]] }] },
      { path: '/srv/app/notes/long.txt', matches: [{ line: 250, text: 'the quokka', ranges: [[4, 10]] }] },
    ],
    totalMatches: 1500,
    stopped: null,
    warning: null,
  };

  it('sends the query with its options, shows remote text as text, and a result opens the editor at its line', async () => {
    const user = userEvent.setup();
    bridge.handle('search.text', () => result);
    render(<App />);
    await user.keyboard('{Control>}{Shift>}h{/Shift}{/Control}');
    const query = screen.getByRole('searchbox', { name: 'Find in files' });
    expect(document.activeElement).toBe(query);
    await user.type(query, 'quokka');
    await user.click(screen.getByRole('button', { name: 'Match case' }));
    await user.click(screen.getByRole('button', { name: 'Whole word' }));
    await user.type(screen.getByRole('textbox', { name: 'Files to include' }), '*.txt');
    await user.type(query, '{Enter}');
    expect(bridge.callsOf('search.text')).toEqual([
      {
        envId: 'env-1',
        root: '/srv/app',
        searchId: expect.any(String),
        query: 'quokka',
        caseSensitive: true,
        regex: false,
        wholeWord: true,
        include: '*.txt',
      },
    ]);
    const list = await screen.findByRole('list', { name: 'Search results' });
    expect(screen.getByText(/1500 matches in 2 files; 1498 more… not shown/)).toBeTruthy();
    expect(within(list).getByText(HOSTILE)).toBeTruthy();
    expect(list.querySelector('b, i')).toBeNull();
    expect([...list.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['quokka', 'quokka']);
    await user.click(within(list).getByRole('button', { name: 'Line 250 the quokka' }));
    expect(bridge.callsOf('editor.open')).toEqual([{ envId: 'env-1', path: '/srv/app/notes/long.txt' }]);
    // The editor is a main-area tab: the Terminals panel comes forward with it.
    expect(useUi.getState().panelByEnv['env-1']).toBe('terminals');
  });

  it('cancels the running search when asked, and says plainly why a search failed', async () => {
    const user = userEvent.setup();
    let answer: (r: TextSearchResult) => void = () => undefined;
    bridge.handle('search.text', () => new Promise<TextSearchResult>((resolve) => (answer = resolve)));
    bridge.handle('search.cancel', () => {
      answer({ ...result, files: [], totalMatches: 0, stopped: 'cancelled' });
      return { ok: true };
    });
    useUi.getState().showPanel('env-1', 'search');
    render(<App />);
    await user.type(screen.getByRole('searchbox', { name: 'Find in files' }), 'slow{Enter}');
    expect(await screen.findByText(/Searching/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(bridge.callsOf('search.cancel')).toEqual([
      { searchId: bridge.callsOf('search.text')[0]!.searchId },
    ]);
    expect(await screen.findByText(/No results \(cancelled\)/)).toBeTruthy();

    bridge.handle('search.text', () => Promise.reject(new Error('grep failed: Unmatched ( or \\(')));
    await user.type(screen.getByRole('searchbox', { name: 'Find in files' }), '{Enter}');
    expect((await screen.findByRole('alert')).textContent).toContain('Unmatched (');
  });
});
