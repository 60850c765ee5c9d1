import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEditors, type EditorTab } from '../editor/editors-store';
import { useUi } from '../app/ui-store';
import type { FakeBridge } from '../test/fake-bridge';
import { withTwoEnvironments } from '../test/two-environments';
import { App } from '../app/app';

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withTwoEnvironments();
  bridge.handle('environments.remove', () => ({ ok: true }));
});
afterEach(cleanup);

const tabOf = (id: string, envId: string, name: string, dirty: boolean): EditorTab => ({
  id,
  envId,
  path: `/home/u/${name}`,
  name,
  content: { kind: 'loading' },
  dirty,
  save: { kind: 'idle' },
  conflict: null,
  deleted: false,
  closing: false,
  savedAt: null,
});

const terminateBox = (dialog: HTMLElement) =>
  within(dialog).getByLabelText<HTMLInputElement>(/terminate its running processes/);

describe('Remove environment dialog', () => {
  it('does not carry the terminate choice over to the next environment it opens for', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    const first = screen.getByRole('dialog', { name: 'Remove Build box?' });
    await user.click(terminateBox(first));
    expect(terminateBox(first).checked).toBe(true);
    await user.click(within(first).getByRole('button', { name: 'Cancel' }));

    await user.click(screen.getByRole('button', { name: /^Environment Pi Connection:/ }));
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    const second = screen.getByRole('dialog', { name: 'Remove Pi?' });
    expect(terminateBox(second).checked).toBe(false);
    await user.click(within(second).getByRole('button', { name: 'Remove' }));
    expect(bridge.callsOf('environments.remove')).toEqual([{ id: 'env-2', terminateProcesses: false }]);
  });

  it('starts unticked when it is switched to another environment while open', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    await user.click(terminateBox(screen.getByRole('dialog', { name: 'Remove Build box?' })));
    act(() => useUi.getState().openDialog({ kind: 'removeEnvironment', id: 'env-2' }));
    expect(terminateBox(screen.getByRole('dialog', { name: 'Remove Pi?' })).checked).toBe(false);
  });

  it('names the files with unsaved changes it will lose, and closes the editor tabs of the environment', async () => {
    const user = userEvent.setup();
    const { add } = useEditors.getState();
    add(tabOf('e1', 'env-1', 'notes.txt', true));
    add(tabOf('e2', 'env-1', 'clean.txt', false));
    add(tabOf('e3', 'env-2', 'other.txt', true));
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove Build box?' });
    expect(within(dialog).getByRole('alert').textContent).toBe(
      'A file has unsaved changes that will be lost: notes.txt.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(useEditors.getState().tabs.map((t) => t.id)).toEqual(['e3']));
    expect(useEditors.getState().activeByEnv['env-1']).toBeUndefined();
  });

  it('says nothing of unsaved changes when there are none', async () => {
    useEditors.getState().add(tabOf('e1', 'env-1', 'clean.txt', false));
    render(<App />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Remove' }));
    expect(within(screen.getByRole('dialog', { name: 'Remove Build box?' })).queryByRole('alert')).toBeNull();
  });
});
