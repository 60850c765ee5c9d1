import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useUi } from '../stores/ui-store';
import type { FakeBridge } from '../test/fake-bridge';
import { withTwoEnvironments } from '../test/two-environments';
import { App } from './app';

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withTwoEnvironments();
  bridge.handle('environments.remove', () => ({ ok: true }));
});
afterEach(cleanup);

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

    await user.click(screen.getByRole('button', { name: 'Environment Pi' }));
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
});
