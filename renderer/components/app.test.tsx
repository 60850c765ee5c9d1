import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FakeBridge } from '../test/fake-bridge';
import { withTwoEnvironments } from '../test/two-environments';
import { App } from './app';

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withTwoEnvironments();
});
afterEach(cleanup);

describe('App', () => {
  it('lists the shortcuts in the menu and in the help dialog (F1)', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    const menu = screen.getByRole('menu', { name: 'Menu' });
    expect(within(menu).getByRole('menuitem', { name: /New terminal.*Ctrl\+Shift\+T/ })).toBeTruthy();
    await user.keyboard('{Escape}');
    await user.keyboard('{F1}');
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(dialog).getByText('Ctrl+Shift+F')).toBeTruthy();
  });

  it('switches panels and environments, and asks before removing one', async () => {
    const user = userEvent.setup();
    bridge.handle('environments.remove', () => ({ ok: true }));
    render(<App />);
    await user.click(screen.getByRole('tab', { name: 'Health' }));
    expect(screen.getByRole('region', { name: 'Timeline' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Environment Pi' }));
    expect(screen.getByRole('heading', { name: 'Pi' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove Pi?' });
    await user.click(within(dialog).getByLabelText(/terminate its running processes/));
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await screen.findByRole('heading', { name: 'Build box' });
    expect(bridge.callsOf('environments.remove')).toEqual([{ id: 'env-2', terminateProcesses: true }]);
    expect(screen.queryByRole('button', { name: 'Environment Pi' })).toBeNull();
  });
});
