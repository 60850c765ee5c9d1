import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeEnv, makeProcess, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { useProcesses } from './processes-store';
import { ProcessesPanel } from './processes-panel';

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withFreshBridge();
});
afterEach(cleanup);

describe('a Processes row', () => {
  it('opens its actions menu on right-click and gives focus to its menu button on close', async () => {
    const user = userEvent.setup();
    bridge.handle('processes.signal', () => ({ ok: true }));
    useProcesses.getState().setForEnv('env-1', [makeProcess()]);
    render(<ProcessesPanel env={makeEnv()} />);
    const row = screen.getByRole('row', { name: 'Process bash' });
    fireEvent.contextMenu(within(row).getByText('running'), { clientX: 20, clientY: 20 });
    const menu = screen.getByRole('menu', { name: 'Actions for bash' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Open pane', 'InterruptCtrl+C', 'Terminate', 'Kill', 'Restart']);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(within(row).getByRole('button', { name: 'More actions for bash' }));

    fireEvent.contextMenu(row, { clientX: 20, clientY: 20 });
    await user.click(screen.getByRole('menuitem', { name: 'Terminate' }));
    await waitFor(() =>
      expect(bridge.callsOf('processes.signal')).toEqual([
        { envId: 'env-1', processId: 'p-1', signal: 'terminate' },
      ]),
    );
  });
});
