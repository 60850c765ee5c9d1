// The sidebar: each environment with a named status indicator, and its context menu's actions.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEnvironments } from '../environments/environments-store';
import { useUi } from './ui-store';
import { makeEnv, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { Sidebar } from './sidebar';

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withFreshBridge();
});
afterEach(cleanup);

describe('Sidebar', () => {
  it('lists environments with a status indicator that has an accessible name', () => {
    useEnvironments
      .getState()
      .setAll([
        makeEnv(),
        makeEnv({ id: 'env-2', name: 'Pi', link: { kind: 'reconnecting', since: 0, attempt: 2 } }),
      ]);
    render(<Sidebar />);
    expect(screen.getByRole('button', { name: /^Environment Build box Connection:/ })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Connection: connected, 3 ms' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Connection: reconnecting (attempt 2)' })).toBeTruthy();
  });
});

describe('Sidebar context menu', () => {
  it('connects, reconnects, edits, duplicates (without the token) and removes an environment', async () => {
    const user = userEvent.setup();
    bridge.handle('environments.add', (draft) => makeEnv({ id: 'env-3', name: draft.name }));
    useEnvironments.getState().setAll([makeEnv({ link: { kind: 'reconnecting', since: 0, attempt: 2 } })]);
    render(<Sidebar />);
    fireEvent.contextMenu(screen.getByRole('button', { name: /^Environment Build box Connection:/ }), {
      clientX: 5,
      clientY: 5,
    });
    const menu = screen.getByRole('menu', { name: 'Actions for Build box' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Disconnect', 'Reconnect now', 'Edit…', 'Duplicate', 'Remove…']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Duplicate' }));
    await waitFor(() =>
      expect(bridge.callsOf('environments.add')).toEqual([
        { name: 'Build box (copy)', color: '#3b82f6', settings: { kind: 'ws', url: 'ws://127.0.0.1:9' } },
      ]),
    );
    fireEvent.contextMenu(screen.getByRole('button', { name: /^Environment Build box Connection:/ }), {
      clientX: 5,
      clientY: 5,
    });
    await user.click(screen.getByRole('menuitem', { name: 'Remove…' }));
    expect(useUi.getState().dialog).toEqual({ kind: 'removeEnvironment', id: 'env-1' });
  });
});
