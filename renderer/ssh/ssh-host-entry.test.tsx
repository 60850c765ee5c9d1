// Two SSH actions that change something outside Tether, each asked first: "Add new SSH host…"
// shows the exact entry and file and writes only on "Append" (an edit takes the preview away), and
// "Uninstall Tether from this host…" names what goes and removes nothing before "Uninstall".
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SshHostEntryView } from '../../shared/ipc';
import { makeEnv, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { EnvironmentDialog } from '../environments/environment-dialog';
import { UninstallHostDialog } from './uninstall-host-dialog';

const FILE = '/home/me/.ssh/config';
let bridge: FakeBridge;
let hosts: { alias: string }[];
beforeEach(() => {
  bridge = withFreshBridge();
  hosts = [];
  bridge.handle('ssh.hosts', () =>
    hosts.map((h) => ({
      alias: h.alias,
      user: null,
      hostname: null,
      port: null,
      proxyJump: null,
      proxyCommand: null,
      problem: null,
    })),
  );
  bridge.handle('app.tokenStorage', () => ({ encrypted: true, description: 'encrypted' }));
  const entry = (draft: { alias: string; target: string }): SshHostEntryView => ({
    file: FILE,
    alias: draft.alias,
    text: `Host ${draft.alias}\n  HostName ${draft.target}\n`,
  });
  bridge.handle('ssh.planHostEntry', entry);
  bridge.handle('ssh.addHostEntry', (draft) => {
    hosts.push({ alias: draft.alias });
    return entry(draft);
  });
});
afterEach(cleanup);

describe('Add new SSH host…', () => {
  it('shows the entry and its file, writes nothing until Append, and then uses the alias', async () => {
    const user = userEvent.setup();
    render(<EnvironmentDialog onClose={() => undefined} />);
    await user.selectOptions(screen.getByLabelText('Connect via'), 'ssh');
    await user.click(await screen.findByRole('button', { name: 'Add new SSH host…' }));
    const form = screen.getByRole('group', { name: 'New SSH host' });
    await user.type(within(form).getByLabelText('Alias'), 'lab');
    await user.type(within(form).getByLabelText('Connects to'), 'build.example');
    await user.click(within(form).getByRole('button', { name: 'Show the entry…' }));

    expect((await within(form).findByLabelText('Entry to append')).textContent).toBe(
      'Host lab\n  HostName build.example\n',
    );
    expect(within(form).getByText(`Tether will append this to ${FILE}:`)).toBeTruthy();
    expect(bridge.callsOf('ssh.addHostEntry')).toEqual([]);

    // An edit after the preview takes it away: what is appended is always what was shown.
    await user.type(within(form).getByLabelText('Alias'), '2');
    expect(within(form).queryByLabelText('Entry to append')).toBeNull();
    expect(within(form).queryByRole('button', { name: `Append to ${FILE}` })).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Show the entry…' }));
    expect((await within(form).findByLabelText('Entry to append')).textContent).toContain('Host lab2\n');
    expect(bridge.callsOf('ssh.addHostEntry')).toEqual([]);

    await user.click(within(form).getByRole('button', { name: `Append to ${FILE}` }));
    expect(bridge.callsOf('ssh.addHostEntry')).toEqual([{ alias: 'lab2', target: 'build.example' }]);
    expect(screen.queryByRole('group', { name: 'New SSH host' })).toBeNull();
    expect((screen.getByLabelText('Host') as HTMLInputElement).value).toBe('lab2');
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('lab2');
    // The host list is read again and shows the new entry.
    expect(((await screen.findByLabelText('From ~/.ssh/config')) as HTMLSelectElement).value).toBe('lab2');
  });

  it("shows the app's refusal (an alias the config has) and writes nothing", async () => {
    bridge.handle('ssh.planHostEntry', () => {
      throw Object.assign(new Error(`${FILE} already has a Host "lab"`), { code: 'conflict' });
    });
    const user = userEvent.setup();
    render(<EnvironmentDialog onClose={() => undefined} />);
    await user.selectOptions(screen.getByLabelText('Connect via'), 'ssh');
    await user.click(await screen.findByRole('button', { name: 'Add new SSH host…' }));
    const form = screen.getByRole('group', { name: 'New SSH host' });
    await user.type(within(form).getByLabelText('Alias'), 'lab');
    await user.type(within(form).getByLabelText('Connects to'), 'h');
    await user.click(within(form).getByRole('button', { name: 'Show the entry…' }));
    expect(await within(form).findByText(/already has a Host "lab"/)).toBeTruthy();
    expect(within(form).queryByRole('button', { name: `Append to ${FILE}` })).toBeNull();
    expect(bridge.callsOf('ssh.addHostEntry')).toEqual([]);
  });
});

describe('Uninstall Tether from this host…', () => {
  it('names what will be removed, removes nothing before Uninstall, then lists what went', async () => {
    bridge.handle('ssh.uninstall', () => ({
      host: 'lab',
      stoppedPids: [4242],
      removed: ['/home/me/.tether/server', '/home/me/.tether/runtime'],
    }));
    const env = makeEnv({ id: 'e1', name: 'Lab box', settings: { kind: 'ssh', destination: 'lab' } });
    const user = userEvent.setup();
    render(<UninstallHostDialog env={env} onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Uninstall Tether from lab?' });
    expect(dialog.textContent).toContain('~/.tether/server');
    expect(dialog.textContent).toContain('~/.tether/runtime');
    expect(dialog.textContent).toContain('stop its daemon');
    expect(bridge.callsOf('ssh.uninstall')).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Uninstall' }));
    const done = await screen.findByRole('dialog', { name: 'Tether was removed from lab' });
    expect(bridge.callsOf('ssh.uninstall')).toEqual([{ envId: 'e1' }]);
    const removed = within(done).getByRole('list', { name: 'Removed' });
    expect(removed.textContent).toContain('pid 4242');
    expect(removed.textContent).toContain('/home/me/.tether/runtime');
  });
});
