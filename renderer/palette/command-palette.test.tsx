import '../test/browser-stand-ins';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeEnv, makeProcess, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { useEnvironments } from '../environments/environments-store';
import { useProcesses } from '../processes/processes-store';
import { terminalContent, usePanes } from '../panes/panes-store';
import { DEFAULT_SETTINGS, useSettings } from '../settings/settings-store';
import { useUi } from '../app/ui-store';
import { CommandPalette } from './command-palette';

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withFreshBridge();
  useEnvironments.getState().setAll([makeEnv()]);
  useProcesses.getState().setForEnv('env-1', [makeProcess({ processId: 'shell' })]);
  usePanes.getState().openTab('env-1', terminalContent('shell'));
  useUi.getState().selectEnv('env-1');
  useSettings.setState({ settings: { ...DEFAULT_SETTINGS, theme: 'light' } });
});
afterEach(cleanup);

const shown = () =>
  screen.queryAllByRole('option').map((o) => o.querySelector('.palette-label')?.textContent);

async function typeInPalette(text: string) {
  const user = userEvent.setup();
  await user.type(screen.getByRole('combobox', { name: 'Command palette' }), text);
  return user;
}

describe('the command palette', () => {
  it('matches the starts of words or initials, not letters scattered anywhere', async () => {
    render(<CommandPalette onClose={() => undefined} />);
    await typeInPalette('rcl');
    await waitFor(() => expect(shown()).toEqual([]));
    expect(screen.getByText('Nothing matches.')).toBeTruthy();
  });

  it('finds a command by its words, the best match first', async () => {
    render(<CommandPalette onClose={() => undefined} />);
    await typeInPalette('sp ri');
    await waitFor(() => expect(shown()).toEqual(['Split right']));
  });

  it('offers the environment, process, terminal and theme commands', async () => {
    render(<CommandPalette onClose={() => undefined} />);
    const labels = shown();
    for (const label of [
      'Connect this environment',
      'Disconnect this environment',
      'Edit this environment…',
      'Remove this environment…',
      'Interrupt the process in this pane',
      'Kill the process in this pane',
      'Clear terminal',
      'Toggle light and dark theme',
    ])
      expect(labels).toContain(label);
  });

  it('offers Uninstall only where Tether installs itself (SSH, container), and Remove not on Local', () => {
    const { unmount } = render(<CommandPalette onClose={() => undefined} />);
    expect(shown()).not.toContain('Uninstall Tether from this host…');
    unmount();
    useEnvironments
      .getState()
      .setAll([makeEnv({ settings: { kind: 'ssh', destination: 'lab' }, sshConnect: null })]);
    const second = render(<CommandPalette onClose={() => undefined} />);
    expect(shown()).toContain('Uninstall Tether from this host…');
    expect(shown()).toContain('Remove this environment…');
    second.unmount();
    useEnvironments
      .getState()
      .setAll([
        makeEnv({ settings: { kind: 'container', engine: 'podman', container: 'box' }, sshConnect: null }),
      ]);
    const third = render(<CommandPalette onClose={() => undefined} />);
    expect(shown()).toContain('Uninstall Tether from this host…');
    third.unmount();
    useEnvironments.getState().setAll([makeEnv({ settings: { kind: 'local' } })]);
    render(<CommandPalette onClose={() => undefined} />);
    expect(shown()).not.toContain('Remove this environment…');
    expect(shown()).not.toContain('Uninstall Tether from this host…');
  });

  it('kills the focused pane’s process, opens Edit for the environment and toggles the theme', async () => {
    bridge.handle('processes.signal', () => ({ ok: true }));
    bridge.handle('settings.update', (patch) => ({ ...DEFAULT_SETTINGS, ...patch }));
    const { unmount } = render(<CommandPalette onClose={() => undefined} />);
    const user = await typeInPalette('kill');
    await waitFor(() => expect(shown()[0]).toBe('Kill the process in this pane'));
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(bridge.callsOf('processes.signal')).toEqual([
        { envId: 'env-1', processId: 'shell', signal: 'kill' },
      ]),
    );
    unmount();

    render(<CommandPalette onClose={() => undefined} />);
    await typeInPalette('edit env');
    await waitFor(() => expect(shown()[0]).toBe('Edit this environment…'));
    await act(async () => {
      await userEvent.keyboard('{Enter}');
    });
    expect(useUi.getState().dialog).toEqual({ kind: 'editEnvironment', id: 'env-1' });
    cleanup();

    render(<CommandPalette onClose={() => undefined} />);
    const again = await typeInPalette('toggle theme');
    await waitFor(() => expect(shown()[0]).toBe('Toggle light and dark theme'));
    await again.keyboard('{Enter}');
    await waitFor(() => expect(bridge.callsOf('settings.update')).toEqual([{ theme: 'dark' }]));
    await waitFor(() => expect(useSettings.getState().settings.theme).toBe('dark'));
  });
});
