// The environment form speaks in human messages (issue #14, defects 7 and 16): Test connection
// checks the field it needs first, and a new environment gets a colour no other one has.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
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
    await user.selectOptions(screen.getByLabelText('Connect via'), 'ws');
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

describe('EnvironmentDialog', () => {
  it('validates before saving and names the stage a failed test stopped at', async () => {
    const user = userEvent.setup();
    bridge.handle('environments.test', () => ({
      ok: false,
      stage: 'auth',
      message: 'the server rejected the token',
      info: null,
      rttMs: null,
    }));
    bridge.handle('environments.add', (draft) => makeEnv({ id: 'new', name: draft.name }));
    let closed = false;
    render(<EnvironmentDialog onClose={() => (closed = true)} />);
    // A new environment starts on SSH, the road most users take.
    expect((screen.getByLabelText('Connect via') as HTMLSelectElement).value).toBe('ssh');
    await user.selectOptions(screen.getByLabelText('Connect via'), 'ws');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByText('Give the environment a name.')).toBeTruthy();
    expect(screen.getByText('Enter a URL like ws://host:port.')).toBeTruthy();
    expect(bridge.callsOf('environments.add')).toHaveLength(0);

    await user.type(screen.getByLabelText('Name'), 'Lab');
    await user.type(screen.getByLabelText('URL'), 'ws://10.0.0.2:7000');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Failed at authentication: the server rejected the token')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(closed).toBe(true));
    expect(bridge.callsOf('environments.add')[0]).toMatchObject({
      name: 'Lab',
      settings: { kind: 'ws', url: 'ws://10.0.0.2:7000' },
    });
    expect(useEnvironments.getState().byId.new?.name).toBe('Lab');
  });
});

describe('token storage wording', () => {
  it('says under the token field that saved tokens are not encrypted when the host cannot encrypt', async () => {
    bridge.handle('app.tokenStorage', () => ({
      encrypted: false,
      description: 'not encrypted: no OS keychain was found',
    }));
    render(<EnvironmentDialog onClose={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Connect via'), { target: { value: 'ws' } });
    const note = await screen.findByText(/Saved tokens are not encrypted: no OS keychain was found\./);
    expect(note.className).toBe('field-warning');
    expect(screen.getByLabelText('Token').getAttribute('aria-describedby')).toBe(note.id);
  });

  it('names the keychain when tokens are encrypted', async () => {
    bridge.handle('app.tokenStorage', () => ({
      encrypted: true,
      description: 'encrypted with the OS keychain (kwallet6)',
    }));
    render(<EnvironmentDialog onClose={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Connect via'), { target: { value: 'ws' } });
    const note = await screen.findByText('Saved tokens are encrypted with the OS keychain (kwallet6).');
    expect(note.className).toBe('field-note');
  });
});

describe('EnvironmentDialog editing a URL with a saved token', () => {
  it('asks for the token again when the URL moves to another origin, not for another path', async () => {
    const user = userEvent.setup();
    const existing = makeEnv({ settings: { kind: 'ws', url: 'ws://10.0.0.2:7000' }, hasToken: true });
    bridge.handle('environments.update', ({ draft }) => ({ ...existing, settings: draft.settings }));
    let closed = false;
    render(<EnvironmentDialog existing={existing} onClose={() => (closed = true)} />);
    const url = screen.getByLabelText('URL');

    await user.clear(url);
    await user.type(url, 'ws://10.0.0.9:7000');
    expect(screen.getByLabelText('Token').getAttribute('placeholder')).toBe('enter it again for the new URL');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      screen.getByText('The saved token belongs to ws://10.0.0.2:7000; enter the token for this URL.'),
    ).toBeTruthy();
    expect(bridge.callsOf('environments.update')).toHaveLength(0);

    await user.type(screen.getByLabelText('Token'), 'new-host-token');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(closed).toBe(true));
    expect(bridge.callsOf('environments.update')[0]).toMatchObject({
      draft: { settings: { url: 'ws://10.0.0.9:7000' }, token: 'new-host-token' },
    });
  });

  it('keeps the saved token for the same origin', async () => {
    const user = userEvent.setup();
    const existing = makeEnv({ settings: { kind: 'ws', url: 'ws://10.0.0.2:7000' }, hasToken: true });
    bridge.handle('environments.update', ({ draft }) => ({ ...existing, settings: draft.settings }));
    let closed = false;
    render(<EnvironmentDialog existing={existing} onClose={() => (closed = true)} />);
    await user.type(screen.getByLabelText('URL'), '/');
    expect(screen.getByLabelText('Token').getAttribute('placeholder')).toBe('stored (leave empty to keep)');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(closed).toBe(true));
    expect(bridge.callsOf('environments.update')[0]?.draft).not.toHaveProperty('token');
  });
});
