import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setBridge } from '../ipc/ipc-client';
import { useEnvironments } from '../stores/environments-store';
import { useUi } from '../stores/ui-store';
import { FakeBridge, makeEnv } from '../test/fake-bridge';
import { resetStores } from '../test/reset-stores';
import { App } from './app';

let bridge: FakeBridge;
beforeEach(() => {
  resetStores();
  bridge = new FakeBridge();
  setBridge(bridge);
  useEnvironments
    .getState()
    .setAll([
      makeEnv(),
      makeEnv({ id: 'env-2', name: 'Pi', settings: { kind: 'command', commandLine: 'ssh pi' } }),
    ]);
  useUi.getState().selectEnv('env-1');
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
