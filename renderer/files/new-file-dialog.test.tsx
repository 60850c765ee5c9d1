import '../test/browser-stand-ins';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IpcError, type EditVersion } from '../../shared/ipc';
import { makeEnv, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { useEnvironments } from '../environments/environments-store';
import { useEditors } from '../editor/editors-store';
import { useFiles } from './files-store';
import { useUi } from '../app/ui-store';
import { appCommands } from '../palette/commands';
import { App } from '../app/app';

const version: EditVersion = { size: 0, modifiedAtMs: 1_700_000_000_000, sha256: 'e'.repeat(64) };

let bridge: FakeBridge;
let existing: Set<string>;
beforeEach(() => {
  bridge = withFreshBridge();
  existing = new Set(['/home/u/taken.txt']);
  bridge
    .handle('files.list', ({ path }) => ({ path, entries: [] }))
    .handle('files.createFile', ({ path }) => {
      if (existing.has(path)) throw new IpcError('conflict', `${path} exists`);
      existing.add(path);
      return { ok: true };
    })
    .handle('editor.open', ({ path }) => {
      if (!existing.has(path)) throw new IpcError('notFound', `${path} does not exist`);
      return { kind: 'text', path, text: '', bom: false, version };
    });
  useEnvironments.getState().setAll([makeEnv()]);
  useUi.getState().selectEnv('env-1');
  useFiles.getState().patch('env-1', { path: '/home/u' });
});
afterEach(cleanup);

describe('New file…', () => {
  it('from the palette, makes the empty file in the folder shown and opens it in the editor', async () => {
    const user = userEvent.setup();
    render(<App />);
    act(() =>
      appCommands()
        .find((c) => c.id === 'newFile')!
        .run(),
    );
    const dialog = screen.getByRole('dialog', { name: 'New file' });
    expect(within(dialog).getByText('/home/u')).toBeTruthy();

    await user.type(within(dialog).getByRole('textbox'), 'taken.txt{Enter}');
    expect(await within(dialog).findByText('taken.txt already exists in /home/u.')).toBeTruthy();

    await user.clear(within(dialog).getByRole('textbox'));
    await user.type(within(dialog).getByRole('textbox'), 'notes.md{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New file' })).toBeNull());
    expect(bridge.callsOf('files.createFile').at(-1)).toEqual({ envId: 'env-1', path: '/home/u/notes.md' });
    await waitFor(() => expect(useEditors.getState().tabs.map((t) => t.path)).toEqual(['/home/u/notes.md']));
    // The editor is a main-area tab: the Terminals panel comes forward with it.
    expect(useUi.getState().panelByEnv['env-1']).toBe('terminals');
  });
});
