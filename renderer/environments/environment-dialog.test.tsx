// The environment form speaks in human messages (issue #14, defects 7 and 16): Test connection
// checks the field it needs first, and a new environment gets a colour no other one has.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEnvironments } from './environments-store';
import { makeEnv, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { EnvironmentDialog } from './environment-dialog';

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withFreshBridge();
  bridge.handle('app.tokenStorage', () => ({ encrypted: true, description: 'encrypted' }));
});
afterEach(cleanup);

describe('Test connection', () => {
  it('with an empty command says what to enter, and sends nothing', async () => {
    const user = userEvent.setup();
    render(<EnvironmentDialog onClose={() => undefined} />);
    await user.selectOptions(screen.getByLabelText('Connect via'), 'command');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(screen.getByText('Enter the command to run.')).toBeTruthy();
    expect(screen.getByLabelText('Command').getAttribute('aria-invalid')).toBe('true');
    expect(document.body.textContent).not.toMatch(/Invalid input|Too small/);
    expect(bridge.callsOf('environments.test')).toHaveLength(0);
  });

  it('with SSH fields that do not parse names the field at fault, and sends nothing', async () => {
    const user = userEvent.setup();
    bridge.handle('ssh.hosts', () => []);
    render(<EnvironmentDialog onClose={() => undefined} />);
    await user.selectOptions(screen.getByLabelText('Connect via'), 'ssh');
    await user.type(screen.getByLabelText('Host'), '-bad@host');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(screen.getByText(/"-bad" is not a user name ssh accepts/)).toBeTruthy();
    expect(screen.getByLabelText('Host').getAttribute('aria-invalid')).toBe('true');
    expect(bridge.callsOf('environments.test')).toHaveLength(0);
  });

  it('with a malformed URL says what a URL looks like', async () => {
    const user = userEvent.setup();
    render(<EnvironmentDialog onClose={() => undefined} />);
    await user.type(screen.getByLabelText('URL'), 'host:7000');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(screen.getByText('Enter a URL like ws://host:port.')).toBeTruthy();
    expect(bridge.callsOf('environments.test')).toHaveLength(0);
  });
});

describe('a new environment', () => {
  it('gets a colour that no environment has yet, Local included', () => {
    useEnvironments
      .getState()
      .setAll([
        makeEnv({ id: 'local', name: 'Local', color: '#2f81f7', settings: { kind: 'local' } }),
        makeEnv({ id: 'env-2', name: 'Pi', color: '#10b981' }),
      ]);
    // Several times: a random pick would collide sooner or later.
    for (let i = 0; i < 10; i += 1) {
      render(<EnvironmentDialog onClose={() => undefined} />);
      const colour = (screen.getByLabelText('Colour') as HTMLInputElement).value.toLowerCase();
      expect(['#2f81f7', '#3b82f6', '#10b981']).not.toContain(colour);
      cleanup();
    }
  });
});
