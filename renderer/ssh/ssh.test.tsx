// The renderer's side of SSH environments: the form (host picker, typed user@host:port, options,
// node path, session lifetime) and its messages, ssh's prompts as a queued modal (host key with its
// full text, masked secrets, Cancel), and the connect stages with install progress, the failing
// stage with ssh's message, *Retry* and *Show log*.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EnvironmentView, SshHostView, SshPromptView } from '../../shared/ipc';
import { useEnvironments } from '../environments/environments-store';
import { useSshPrompts } from './ssh-prompts-store';
import { useUi } from '../app/ui-store';
import { makeEnv, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { App } from '../app/app';
import { EnvironmentDialog } from '../environments/environment-dialog';
import { SshPromptDialog } from './ssh-prompt-dialog';

const HOSTS: SshHostView[] = [
  {
    alias: 'lab',
    user: 'alice',
    hostname: '10.0.0.5',
    port: 2222,
    proxyJump: 'bastion',
    proxyCommand: null,
    problem: null,
  },
  {
    alias: 'pi',
    user: 'pi',
    hostname: 'pi.local',
    port: 22,
    proxyJump: null,
    proxyCommand: null,
    problem: null,
  },
];

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withFreshBridge();
  bridge.handle('ssh.hosts', () => HOSTS);
  bridge.handle('app.tokenStorage', () => ({ encrypted: true, description: 'encrypted' }));
  bridge.handle('environments.add', (draft) =>
    makeEnv({ id: 'new', name: draft.name, settings: draft.settings }),
  );
});
afterEach(cleanup);

async function openSshForm(user: ReturnType<typeof userEvent.setup>) {
  render(<EnvironmentDialog onClose={() => undefined} />);
  await user.selectOptions(screen.getByLabelText('Connect via'), 'ssh');
}

describe('the SSH environment form', () => {
  it('lists the config hosts with what ssh resolves, and a picked one becomes the destination and name', async () => {
    const user = userEvent.setup();
    await openSshForm(user);
    const picker = await screen.findByLabelText('From ~/.ssh/config');
    expect(
      within(picker).getByRole('option', { name: 'lab — alice@10.0.0.5:2222 via bastion' }),
    ).toBeTruthy();
    await user.selectOptions(picker, 'lab');
    expect((screen.getByLabelText('Host') as HTMLInputElement).value).toBe('lab');
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('lab');
    expect(screen.getByText('ssh connects to alice@10.0.0.5:2222 via bastion')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(bridge.callsOf('environments.add')).toEqual([
        expect.objectContaining({ name: 'lab', settings: { kind: 'ssh', destination: 'lab' } }),
      ]),
    );
  });

  it('takes a typed user@host:port with options, node path and session lifetime', async () => {
    const user = userEvent.setup();
    await openSshForm(user);
    await user.type(screen.getByLabelText('Name'), 'Box');
    await user.type(screen.getByLabelText('Host'), 'bob@build.example.com:2200');
    await user.type(
      screen.getByLabelText('Extra ssh options'),
      'ServerAliveInterval = 15{Enter}{Enter}Compression=yes',
    );
    await user.type(screen.getByLabelText('Node on the host'), '/opt/node/bin/node');
    await user.type(screen.getByLabelText('Keep sessions (hours)'), '3');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(bridge.callsOf('environments.add')[0]?.settings).toEqual({
        kind: 'ssh',
        destination: 'bob@build.example.com',
        port: 2200,
        sshOptions: ['ServerAliveInterval=15', 'Compression=yes'],
        remoteNodePath: '/opt/node/bin/node',
        sessionTtlMs: 3 * 3_600_000,
      }),
    );
  });

  it('shows a Test connection’s stages live, then where it failed', async () => {
    const user = userEvent.setup();
    let finish: (() => void) | null = null;
    bridge.handle('environments.test', (input) => {
      const testId = input.testId!;
      bridge.emit('ssh.testProgress', {
        testId,
        progress: {
          stage: 'installing',
          bytesSent: 100,
          bytesTotal: 400,
          failure: null,
          passed: ['connecting', 'authenticating', 'checking', 'installing'],
          logLines: 1,
        },
      });
      // Another window's test: not this dialog's.
      bridge.emit('ssh.testProgress', {
        testId: 'someone-else',
        progress: { stage: 'starting', failure: null, passed: ['starting'], logLines: 0 },
      });
      const failed = {
        stage: 'starting' as const,
        failure: { stage: 'starting' as const, message: 'the daemon did not start' },
        passed: ['connecting' as const, 'authenticating' as const, 'checking' as const, 'starting' as const],
        logLines: 4,
      };
      return new Promise((resolve) => {
        finish = () =>
          resolve({ ok: false, stage: 'handshake', message: 'x', info: null, rttMs: null, ssh: failed });
      });
    });
    await openSshForm(user);
    await user.type(screen.getByLabelText('Name'), 'Box');
    await user.type(screen.getByLabelText('Host'), 'lab');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    const stages = await screen.findByRole('region', { name: 'SSH connect stages' });
    expect(within(stages).getByLabelText('installing the server: current').textContent).toContain(
      '100 B of 400 B',
    );
    expect(bridge.callsOf('environments.test')[0]).toMatchObject({
      name: 'Box',
      settings: { kind: 'ssh', destination: 'lab' },
    });
    act(() => finish!());
    expect(await within(stages).findByRole('alert')).toHaveProperty(
      'textContent',
      'failed while starting the server: the daemon did not start',
    );
    expect(screen.getByRole('status').textContent).toBe('The test failed; the stages above say where.');
  });

  it('says what is wrong with each field, and sends nothing', async () => {
    const user = userEvent.setup();
    await openSshForm(user);
    await user.type(screen.getByLabelText('Name'), 'Bad');
    await user.type(screen.getByLabelText('Host'), '-oProxyCommand=evil');
    await user.type(screen.getByLabelText('Extra ssh options'), 'ControlPath=/tmp/x');
    await user.type(screen.getByLabelText('Node on the host'), 'node');
    await user.type(screen.getByLabelText('Keep sessions (hours)'), 'forever');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText(/"-oProxyCommand=evil" is not a host name or alias/)).toBeTruthy();
    expect(
      screen.getByText('ControlPath is set by Tether for its shared connection and cannot be changed here.'),
    ).toBeTruthy();
    expect(screen.getByText(/Give the full path of node on the host/)).toBeTruthy();
    expect(screen.getByText(/Give a number of hours up to 168/)).toBeTruthy();
    await user.clear(screen.getByLabelText('Host'));
    await user.click(screen.getByLabelText('Host'));
    await user.paste('a@[2001:db8::1]:22:9');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText(/"22:9" is not a port/)).toBeTruthy();
    await user.clear(screen.getByLabelText('Host'));
    await user.type(screen.getByLabelText('Host'), '-oProxyCommand=evil@host');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText(/"-oProxyCommand=evil" is not a user name ssh accepts/)).toBeTruthy();
    expect(bridge.callsOf('environments.add')).toEqual([]);
  });
});

function prompt(patch: Partial<SshPromptView>): SshPromptView {
  return {
    id: 'p1',
    envId: 'env-1',
    envName: 'Lab box',
    kind: 'password',
    text: "alice@10.0.0.5's password: ",
    destination: 'lab',
    secret: true,
    ...patch,
  };
}

describe('ssh prompts', () => {
  const HOST_KEY_TEXT =
    "The authenticity of host '[127.0.0.1]:2222' can't be established.\nED25519 key fingerprint is SHA256:abcDEF123.\nAre you sure you want to continue connecting (yes/no/[fingerprint])?";

  it('shows a host-key question in full and answers yes only on Trust and connect', async () => {
    const user = userEvent.setup();
    bridge.handle('ssh.answerPrompt', () => ({ ok: true }));
    useSshPrompts
      .getState()
      .setAll([prompt({ id: 'hk', kind: 'hostKey', text: HOST_KEY_TEXT, secret: false })]);
    render(<SshPromptDialog />);
    const dialog = screen.getByRole('dialog', { name: 'Lab box: unknown host key' });
    expect(within(dialog).getByLabelText('ssh says').textContent).toBe(HOST_KEY_TEXT);
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Trust and connect' }));
    expect(bridge.callsOf('ssh.answerPrompt')).toEqual([{ id: 'hk', answer: 'yes' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks for a password masked, one prompt at a time, and Cancel answers null', async () => {
    const user = userEvent.setup();
    bridge.handle('ssh.answerPrompt', () => ({ ok: true }));
    useSshPrompts.getState().setAll([
      prompt({ id: 'pw' }),
      prompt({
        id: 'otp',
        envId: 'env-2',
        envName: 'Pi',
        kind: 'server',
        text: '(me@pi) Verification code: ',
      }),
    ]);
    render(<SshPromptDialog />);
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    const field = screen.getByLabelText('Password') as HTMLInputElement;
    expect(field.type).toBe('password');
    await user.type(field, 'hunter2{Enter}');
    expect(bridge.callsOf('ssh.answerPrompt')).toEqual([{ id: 'pw', answer: 'hunter2' }]);
    const next = await screen.findByRole('dialog', { name: 'Pi: the server asks' });
    expect((within(next).getByLabelText('Answer to the server') as HTMLInputElement).value).toBe('');
    await user.click(within(next).getByRole('button', { name: 'Cancel' }));
    expect(bridge.callsOf('ssh.answerPrompt')[1]).toEqual({ id: 'otp', answer: null });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('closes a prompt answered elsewhere (another window, or a disconnect)', () => {
    useSshPrompts.getState().setAll([prompt({})]);
    render(<SshPromptDialog />);
    expect(screen.getByRole('dialog')).toBeTruthy();
    act(() => useSshPrompts.getState().remove('p1'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

function sshEnv(patch: Partial<EnvironmentView>): EnvironmentView {
  return makeEnv({
    id: 'env-1',
    name: 'Lab box',
    settings: { kind: 'ssh', destination: 'lab' },
    link: { kind: 'connecting', since: 0 },
    health: null,
    info: null,
    ...patch,
  });
}

describe('ssh connect stages', () => {
  it('show the steps a reconnect over a live master skips as skipped, never as done', () => {
    useEnvironments.getState().setAll([
      sshEnv({
        link: { kind: 'reconnecting', since: 0, attempt: 1, nextRetryAt: null },
        sshConnect: {
          stage: 'starting',
          detail: 'reattaching to the daemon',
          failure: null,
          passed: ['connecting', 'starting'],
          logLines: 5,
        },
      }),
    ]);
    useUi.getState().selectEnv('env-1');
    render(<App />);
    const stages = screen.getByRole('region', { name: 'SSH connect stages' });
    const states = within(stages)
      .getAllByRole('listitem')
      .map((item) => item.getAttribute('aria-label'));
    expect(states).toEqual([
      'connecting: done',
      'authenticating: skipped',
      'checking the host: skipped',
      'installing the server: skipped',
      'starting the server: current',
      'connected: pending',
    ]);
    expect(within(stages).getByLabelText('installing the server: skipped').textContent).not.toContain('✓');
  });

  it('show the install progress in the sidebar indicator and the environment view', () => {
    useEnvironments.getState().setAll([
      sshEnv({
        sshConnect: {
          stage: 'installing',
          detail: 'uploading node runtime',
          bytesSent: 512 * 1024,
          bytesTotal: 2 * 1_048_576,
          failure: null,
          passed: ['connecting', 'authenticating', 'checking', 'installing'],
          logLines: 3,
        },
      }),
    ]);
    useUi.getState().selectEnv('env-1');
    render(<App />);
    const sidebar = screen.getByRole('navigation', { name: 'Environments' });
    expect(
      within(sidebar).getByRole('img', { name: 'Connection: installing the server, 512 KiB of 2.0 MiB' }),
    ).toBeTruthy();
    const stages = screen.getByRole('region', { name: 'SSH connect stages' });
    expect(within(stages).getByLabelText('checking the host: done')).toBeTruthy();
    expect(within(stages).getByLabelText('installing the server: current').textContent).toContain(
      'uploading node runtime',
    );
    expect(within(stages).getByLabelText('starting the server: pending')).toBeTruthy();
    const bar = within(stages).getByRole('progressbar', { name: 'Install progress' }) as HTMLProgressElement;
    expect([bar.value, bar.max]).toEqual([512 * 1024, 2 * 1_048_576]);
    expect(within(stages).queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('name the failing stage with ssh’s message, retry, and show the connect log', async () => {
    const user = userEvent.setup();
    bridge.handle('environments.reconnectNow', () => ({ ok: true }));
    bridge.handle('ssh.connectLog', () => ({
      lines: ['10:00:00.000 — connecting —', '10:00:01.000 alice@10.0.0.5: Permission denied (publickey).'],
    }));
    const message = 'alice@10.0.0.5: Permission denied (publickey).';
    useEnvironments.getState().setAll([
      sshEnv({
        link: { kind: 'failed', since: 0, reason: message },
        sshConnect: {
          stage: 'authenticating',
          failure: { stage: 'authenticating', message },
          passed: ['connecting', 'authenticating'],
          logLines: 2,
        },
      }),
    ]);
    useUi.getState().selectEnv('env-1');
    render(<App />);
    const stages = screen.getByRole('region', { name: 'SSH connect stages' });
    expect(within(stages).getByRole('alert').textContent).toBe(`failed while authenticating: ${message}`);
    expect(within(stages).getByLabelText('authenticating: failed')).toBeTruthy();
    expect(within(stages).getByLabelText('connecting: done')).toBeTruthy();
    await user.click(within(stages).getByRole('button', { name: 'Retry' }));
    expect(bridge.callsOf('environments.reconnectNow')).toEqual([{ id: 'env-1' }]);
    await user.click(within(stages).getByRole('button', { name: 'Show log' }));
    const log = await screen.findByLabelText('Connect log');
    expect(log.textContent).toContain('Permission denied (publickey).');
  });
});
