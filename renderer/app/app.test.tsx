import '../test/browser-stand-ins';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeProcess, type FakeBridge } from '../test/fake-bridge';
import { withTwoEnvironments } from '../test/two-environments';
import { App } from './app';
import { useRecentPaths } from '../files/recent-paths-store';
import { useUi } from './ui-store';

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withTwoEnvironments();
});
afterEach(cleanup);

describe('App', () => {
  it('lists the shortcuts in the menu and in the help dialog', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    const menu = screen.getByRole('menu', { name: 'Menu' });
    expect(within(menu).getByRole('menuitem', { name: /New terminal.*Ctrl\+Shift\+T/ })).toBeTruthy();
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Shortcuts' }));
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(dialog).getByText('Ctrl+Shift+F')).toBeTruthy();
  });

  it('opens the command palette with F1 or Ctrl+Shift+P, fuzzy-filters commands and runs one', async () => {
    const user = userEvent.setup();
    bridge.handle('processes.start', () => makeProcess({ processId: 'p-9' }));
    render(<App />);
    await user.keyboard('{F1}');
    const palette = screen.getByRole('combobox', { name: 'Command palette' });
    expect(screen.getByRole('option', { name: /Split right.*Ctrl\+Shift\+D/ })).toBeTruthy();
    expect(screen.getByRole('option', { name: /Reconnect all/ })).toBeTruthy();
    await user.type(palette, 'splt dwn');
    expect(screen.getAllByRole('option')[0]!.textContent).toMatch(/^Split down/);
    await user.clear(palette);
    await user.type(palette, 'nw trm');
    expect(screen.getAllByRole('option')[0]!.textContent).toMatch(/^New terminal/);
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('combobox', { name: 'Command palette' })).toBeNull();
    expect(bridge.callsOf('processes.start')).toEqual([{ envId: 'env-1', tty: true }]);

    await user.keyboard('{Control>}{Shift>}p{/Shift}{/Control}');
    expect(screen.getByRole('combobox', { name: 'Command palette' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('combobox', { name: 'Command palette' })).toBeNull();
  });

  it('quick open (Ctrl+P) goes to an environment or a recent folder', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.keyboard('{Control>}p{/Control}');
    const input = screen.getByRole('combobox', { name: 'Quick open' });
    await user.type(input, 'pi');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('heading', { name: 'Pi' })).toBeTruthy();

    bridge.handle('files.list', ({ path }) => ({ path, entries: [] }));
    useRecentPaths.getState().visited('env-1', '/srv/build-logs');
    await user.keyboard('{Control>}p{/Control}');
    await user.type(screen.getByRole('combobox', { name: 'Quick open' }), 'build-logs');
    await user.keyboard('{Enter}');
    expect(screen.getByRole('heading', { name: 'Build box' })).toBeTruthy();
    expect(useUi.getState().panelByEnv['env-1']).toBe('files');
    expect(bridge.callsOf('files.list')[0]).toMatchObject({ envId: 'env-1', path: '/srv/build-logs' });
  });

  it('switches panels and environments, and asks before removing one', async () => {
    const user = userEvent.setup();
    bridge.handle('environments.remove', () => ({ ok: true }));
    render(<App />);
    await user.click(screen.getByRole('tab', { name: 'Health' }));
    expect(screen.getByRole('region', { name: 'Timeline' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /^Environment Pi Connection:/ }));
    expect(screen.getByRole('heading', { name: 'Pi' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove Pi?' });
    await user.click(within(dialog).getByLabelText(/terminate its running processes/));
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await screen.findByRole('heading', { name: 'Build box' });
    expect(bridge.callsOf('environments.remove')).toEqual([{ id: 'env-2', terminateProcesses: true }]);
    expect(screen.queryByRole('button', { name: /^Environment Pi Connection:/ })).toBeNull();
  });
});
