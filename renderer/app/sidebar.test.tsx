// The sidebar: each environment with a named status indicator, and its context menu's actions.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEnvironments } from '../environments/environments-store';
import { useUi } from './ui-store';
import { makeEnv, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { Sidebar } from './sidebar';
import { EMPTY_TERMINAL_PROFILE } from '../../shared/ipc';

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
        {
          name: 'Build box (copy)',
          color: '#3b82f6',
          settings: { kind: 'ws', url: 'ws://127.0.0.1:9' },
          // The copy starts its shells as the original does.
          terminalProfile: EMPTY_TERMINAL_PROFILE,
        },
      ]),
    );
    fireEvent.contextMenu(screen.getByRole('button', { name: /^Environment Build box Connection:/ }), {
      clientX: 5,
      clientY: 5,
    });
    await user.click(screen.getByRole('menuitem', { name: 'Remove…' }));
    expect(useUi.getState().dialog).toEqual({ kind: 'removeEnvironment', id: 'env-1' });
  });

  it('offers "Uninstall Tether from this host…" on environments Tether installs itself in only, opening its confirmation', async () => {
    const user = userEvent.setup();
    useEnvironments.getState().setAll([
      makeEnv(),
      // Kinds that bootstrap their target carry a connect view (null before the first connect).
      makeEnv({
        id: 'env-ssh',
        name: 'Lab',
        settings: { kind: 'ssh', destination: 'lab' },
        sshConnect: null,
      }),
      makeEnv({
        id: 'env-box',
        name: 'Box',
        settings: { kind: 'container', engine: 'podman', container: 'box' },
        sshConnect: null,
      }),
    ]);
    render(<Sidebar />);
    fireEvent.contextMenu(screen.getByRole('button', { name: /^Environment Build box Connection:/ }), {
      clientX: 5,
      clientY: 5,
    });
    expect(screen.queryByRole('menuitem', { name: 'Uninstall Tether from this host…' })).toBeNull();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    fireEvent.contextMenu(screen.getByRole('button', { name: /^Environment Lab Connection:/ }), {
      clientX: 5,
      clientY: 5,
    });
    await user.click(screen.getByRole('menuitem', { name: 'Uninstall Tether from this host…' }));
    expect(useUi.getState().dialog).toEqual({ kind: 'uninstallFromHost', id: 'env-ssh' });
    fireEvent.contextMenu(screen.getByRole('button', { name: /^Environment Box Connection:/ }), {
      clientX: 5,
      clientY: 5,
    });
    await user.click(screen.getByRole('menuitem', { name: 'Uninstall Tether from this host…' }));
    expect(useUi.getState().dialog).toEqual({ kind: 'uninstallFromHost', id: 'env-box' });
    // The menu only asks; removing waits for the dialog's yes.
    expect(bridge.callsOf('ssh.uninstall')).toEqual([]);
  });
});
