// The Processes panel: state, exit code and duration of each process, its actions, and Start.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useProcesses } from './processes-store';
import { makeEnv, makeProcess, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { ProcessesPanel } from './processes-panel';

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withFreshBridge();
});
afterEach(cleanup);

describe('ProcessesPanel', () => {
  it('shows each process with state and exit code and sends its actions', async () => {
    const user = userEvent.setup();
    bridge.handle('processes.signal', () => ({ ok: true }));
    bridge.handle('processes.start', (input) =>
      makeProcess({ processId: 'p-3', title: input.shellLine ?? '?' }),
    );
    useProcesses
      .getState()
      .setForEnv('env-1', [
        makeProcess(),
        makeProcess({ processId: 'p-2', title: 'make', state: 'exited', exitCode: 3, endedAt: Date.now() }),
      ]);
    render(<ProcessesPanel env={makeEnv()} />);
    const running = screen.getByRole('row', { name: 'Process bash' });
    expect(within(running).getByText('running')).toBeTruthy();
    expect(within(running).getByText('1m 05s')).toBeTruthy();
    const exited = screen.getByRole('row', { name: 'Process make' });
    expect(within(exited).getByText('3')).toBeTruthy();
    await user.click(within(exited).getByRole('button', { name: 'More actions for make' }));
    expect(screen.queryByRole('menuitem', { name: 'Kill' })).toBeNull();
    await user.keyboard('{Escape}');

    await user.click(within(running).getByRole('button', { name: 'More actions for bash' }));
    await user.click(screen.getByRole('menuitem', { name: 'Interrupt' }));
    expect(bridge.callsOf('processes.signal')).toEqual([
      { envId: 'env-1', processId: 'p-1', signal: 'interrupt' },
    ]);

    await user.type(screen.getByLabelText('Command'), 'make -j4');
    await user.type(screen.getByLabelText('Environment (K=V lines)'), 'CC=clang{enter}bad line');
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(await screen.findByText('"bad line" is not KEY=VALUE.')).toBeTruthy();
    await user.clear(screen.getByLabelText('Environment (K=V lines)'));
    await user.type(screen.getByLabelText('Environment (K=V lines)'), 'CC=clang');
    await user.click(screen.getByLabelText('Open in a pane'));
    await user.click(screen.getByRole('button', { name: 'Start' }));
    await waitFor(() =>
      expect(bridge.callsOf('processes.start')[0]).toEqual({
        envId: 'env-1',
        shellLine: 'make -j4',
        tty: true,
        env: { CC: 'clang' },
      }),
    );
  });
});
