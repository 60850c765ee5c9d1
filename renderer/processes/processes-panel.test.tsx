// The Processes panel: state, exit code and duration of each process, its actions, and Start.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
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
  it("lists a shell's commands under it, newest first, with folder, duration and exit", async () => {
    const user = userEvent.setup();
    const commands = [
      { line: 'cd src', cwd: '/home/ann', startedAt: 1_000, endedAt: 1_200, exitCode: 0 },
      { line: 'make test', cwd: '/home/ann/src', startedAt: 2_000, endedAt: 14_000, exitCode: 2 },
    ];
    useProcesses.getState().setForEnv('env-1', [makeProcess({ commands })]);
    render(<ProcessesPanel env={makeEnv()} />);
    await user.click(screen.getByText('2 commands in bash'));
    const table = screen.getByRole('table', { name: 'Commands of bash' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows.map((cells) => [cells[0], cells[1], cells[4]])).toEqual([
      ['make test', '/home/ann/src', '2'],
      ['cd src', '/home/ann', '0'],
    ]);
    expect(rows[0]?.[3]).toBe('12s');
  });

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

describe('the state badge', () => {
  it('tells a clean exit, a non-zero exit and an end by a signal apart', () => {
    useProcesses.getState().setForEnv('env-1', [
      makeProcess({ processId: 'p-1', title: 'ok', state: 'exited', exitCode: 0, endedAt: Date.now() }),
      makeProcess({ processId: 'p-2', title: 'make', state: 'exited', exitCode: 2, endedAt: Date.now() }),
      makeProcess({
        processId: 'p-3',
        title: 'sleep',
        state: 'exited',
        exitCode: 137,
        endedAt: Date.now(),
      }),
    ]);
    render(<ProcessesPanel env={makeEnv()} />);
    const cells = (title: string) =>
      within(screen.getByRole('row', { name: `Process ${title}` }))
        .getAllByRole('cell')
        .slice(1, 3)
        .map((c) => [c.textContent, c.querySelector('.badge')?.className ?? null]);
    expect(cells('ok')).toEqual([
      ['exited', 'badge state-exited'],
      ['0', null],
    ]);
    expect(cells('make')).toEqual([
      ['exit error', 'badge state-exit-error'],
      ['2', null],
    ]);
    expect(cells('sleep')).toEqual([
      ['killed', 'badge state-killed'],
      ['137 (SIGKILL)', null],
    ]);
  });
});
