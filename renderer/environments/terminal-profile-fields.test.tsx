// The environment dialog's terminal profile section: the same for every kind, Local included; it
// shows the stored profile, names a bad variable line before anything is sent, and saves the
// profile with the environment.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { makeEnv, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { EnvironmentDialog } from './environment-dialog';
import { EMPTY_TERMINAL_PROFILE } from '../../shared/ipc';

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withFreshBridge();
  bridge.handle('app.tokenStorage', () => ({ encrypted: true, description: 'encrypted' }));
});
afterEach(cleanup);

const local = makeEnv({
  id: 'local',
  name: 'Local',
  settings: { kind: 'local' },
  terminalProfile: {
    shell: '/bin/bash',
    args: ['--login', '-i'],
    cwd: '~/src',
    env: [{ name: 'GREETING', value: 'hi there' }],
    startCommands: ['export A=1', 'cd /tmp'],
  },
});

describe('Terminal profile', () => {
  it('shows the stored profile of Local, whose kind has no fields of its own', () => {
    render(<EnvironmentDialog existing={local} onClose={() => undefined} />);
    const value = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;
    expect(value('Shell')).toBe('/bin/bash');
    expect(value('Arguments')).toBe('--login -i');
    expect(value('Start in')).toBe('~/src');
    expect(value('Variables')).toBe('GREETING=hi there');
    expect(value('Start commands')).toBe('export A=1\ncd /tmp');
  });

  it('names a bad variable line and sends nothing; once fixed, saves the profile', async () => {
    const user = userEvent.setup();
    bridge.handle('environments.update', ({ draft }) => ({ ...local, ...draft }));
    let closed = false;
    render(<EnvironmentDialog existing={local} onClose={() => (closed = true)} />);
    const variables = screen.getByLabelText('Variables');
    await user.clear(variables);
    await user.type(variables, 'GREETING=hello{Enter}MY-VAR=1');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      screen.getByText(
        'Line 2: "MY-VAR" is not a valid variable name: use letters, digits and _, not starting with a digit.',
      ),
    ).toBeTruthy();
    expect(variables.getAttribute('aria-invalid')).toBe('true');
    expect(bridge.callsOf('environments.update')).toHaveLength(0);

    await user.clear(variables);
    await user.type(variables, 'GREETING=hello{Enter}MY_VAR=a=b');
    await user.clear(screen.getByLabelText('Arguments'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(closed).toBe(true));
    expect(bridge.callsOf('environments.update')[0]?.draft.terminalProfile).toEqual({
      shell: '/bin/bash',
      args: [],
      cwd: '~/src',
      env: [
        { name: 'GREETING', value: 'hello' },
        { name: 'MY_VAR', value: 'a=b' },
      ],
      startCommands: ['export A=1', 'cd /tmp'],
    });
  });

  it('refuses arguments without a shell, and adds a new environment with the empty profile', async () => {
    const user = userEvent.setup();
    bridge.handle('environments.add', (draft) => makeEnv({ id: 'new', name: draft.name }));
    render(<EnvironmentDialog onClose={() => undefined} />);
    await user.selectOptions(screen.getByLabelText('Connect via'), 'command');
    await user.type(screen.getByLabelText('Name'), 'Pipe');
    await user.type(screen.getByLabelText('Command'), 'tether exec-server --listen stdio');
    await user.type(screen.getByLabelText('Arguments'), '-l');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByText('Arguments go with a shell program; enter the shell too.')).toBeTruthy();
    expect(bridge.callsOf('environments.add')).toHaveLength(0);

    await user.clear(screen.getByLabelText('Arguments'));
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(bridge.callsOf('environments.add')).toHaveLength(1));
    expect(bridge.callsOf('environments.add')[0]?.terminalProfile).toEqual(EMPTY_TERMINAL_PROFILE);
  });
});
