// The renderer's side of Container environments: the dialog's live list (name, image, status, age)
// here or on an SSH environment's host, a picked container becoming the setting and the name, a
// typed one; the Exec command form; and a stopped container said as such, with *Start container*.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ContainerView } from '../../shared/ipc';
import { useEnvironments } from '../environments/environments-store';
import { EnvironmentDialog } from '../environments/environment-dialog';
import { EnvironmentView } from '../environments/environment-view';
import { makeEnv, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { age } from './container-form';

const NOW = Date.now();
const LOCAL: ContainerView[] = [
  {
    name: 'web',
    id: 'a1',
    image: 'nginx:1',
    status: 'Up 5 minutes',
    running: true,
    createdAt: NOW - 5 * 60_000,
  },
  {
    name: 'db',
    id: 'b2',
    image: 'postgres:16',
    status: 'Exited (0) 1 hour ago',
    running: false,
    createdAt: null,
  },
];
const REMOTE: ContainerView[] = [
  {
    name: 'staging-api',
    id: 'c3',
    image: 'api:2',
    status: 'Up 3 days',
    running: true,
    createdAt: NOW - 3 * 86_400_000,
  },
];

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withFreshBridge();
  bridge.handle('app.tokenStorage', () => ({ encrypted: true, description: 'encrypted' }));
  bridge.handle('containers.list', (query) => (query.sshEnvId === 'lab' ? REMOTE : LOCAL));
  bridge.handle('environments.add', (draft) =>
    makeEnv({ id: 'new', name: draft.name, settings: draft.settings }),
  );
  useEnvironments
    .getState()
    .setAll([
      makeEnv({ id: 'lab', name: 'Lab', settings: { kind: 'ssh', destination: 'me@lab', port: 2222 } }),
    ]);
});
afterEach(cleanup);

async function openContainerForm(user: ReturnType<typeof userEvent.setup>) {
  render(<EnvironmentDialog onClose={() => undefined} />);
  await user.selectOptions(screen.getByLabelText('Connect via'), 'container');
}

describe('the Container environment form', () => {
  it("offers the engine's containers with image, status and age; a picked one is the container and the name", async () => {
    const user = userEvent.setup();
    await openContainerForm(user);
    const list = screen.getByRole('listbox', { name: 'Containers' });
    const web = await within(list).findByRole('option', { name: /^web nginx:1 Up 5 minutes/ });
    expect(web.textContent).toContain('5 min');
    expect(within(list).getByRole('option', { name: /^db postgres:16 Exited/ })).toBeTruthy();
    await user.click(web);
    expect((screen.getByLabelText('Container') as HTMLInputElement).value).toBe('web');
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('web');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(bridge.callsOf('environments.add')).toEqual([
        expect.objectContaining({
          name: 'web',
          settings: { kind: 'container', engine: 'podman', container: 'web' },
        }),
      ]),
    );
    expect(bridge.callsOf('containers.list')).toEqual([{ engine: 'podman' }]);
  });

  it("lists an SSH environment's host with the engine picked, and rides that host", async () => {
    const user = userEvent.setup();
    await openContainerForm(user);
    await user.selectOptions(screen.getByLabelText('Engine'), 'docker');
    await user.selectOptions(screen.getByLabelText('Containers on'), 'lab');
    await user.click(await screen.findByRole('option', { name: /^staging-api / }));
    expect(screen.getByRole('option', { name: /^staging-api / }).textContent).toContain('3 d');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(bridge.callsOf('environments.add')).toEqual([
        expect.objectContaining({
          settings: {
            kind: 'container',
            engine: 'docker',
            container: 'staging-api',
            host: { destination: 'me@lab', port: 2222 },
          },
        }),
      ]),
    );
    expect(bridge.callsOf('containers.list').at(-1)).toEqual({ engine: 'docker', sshEnvId: 'lab' });
  });

  it('takes a typed name, and refuses one no engine accepts', async () => {
    const user = userEvent.setup();
    await openContainerForm(user);
    await user.type(screen.getByLabelText('Name'), 'Dev');
    await user.type(screen.getByLabelText('Container'), '-rm');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('A container name has letters, digits and _.- only.')).toBeTruthy();
    await user.clear(screen.getByLabelText('Container'));
    await user.type(screen.getByLabelText('Container'), 'dev_1');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(bridge.callsOf('environments.add')).toEqual([
        expect.objectContaining({ settings: { kind: 'container', engine: 'podman', container: 'dev_1' } }),
      ]),
    );
  });
});

describe('the Exec command form', () => {
  it('stores the prefix as typed', async () => {
    const user = userEvent.setup();
    render(<EnvironmentDialog onClose={() => undefined} />);
    await user.selectOptions(screen.getByLabelText('Connect via'), 'exec');
    await user.type(screen.getByLabelText('Name'), 'Pod');
    await user.type(screen.getByLabelText('Command prefix'), 'kubectl exec -i pod-1 --');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(bridge.callsOf('environments.add')).toEqual([
        expect.objectContaining({ settings: { kind: 'exec', prefix: 'kubectl exec -i pod-1 --' } }),
      ]),
    );
  });
});

describe('a stopped container', () => {
  it('says so in those words and offers Start container, which asks the app to start it', async () => {
    bridge.handle('containers.start', () => ({ ok: true }));
    const env = makeEnv({
      id: 'c',
      name: 'Web',
      settings: { kind: 'container', engine: 'podman', container: 'web' },
      sshConnect: null,
      link: {
        kind: 'failed',
        since: 0,
        code: 'containerStopped',
        reason: 'The container web is exited on podman.',
      },
    });
    const user = userEvent.setup();
    render(<EnvironmentView env={env} />);
    const state = screen.getByRole('alert', { name: 'Container stopped' });
    expect(state.textContent).toContain('The container web is exited on podman.');
    expect(screen.queryByRole('alert', { name: 'Link failure' })).toBeNull();
    await user.click(within(state).getByRole('button', { name: 'Start container' }));
    await waitFor(() => expect(bridge.callsOf('containers.start')).toEqual([{ envId: 'c' }]));
  });

  it('says a removed one is gone, with nothing to start', () => {
    const env = makeEnv({
      settings: { kind: 'container', engine: 'podman', container: 'web' },
      link: {
        kind: 'failed',
        since: 0,
        code: 'containerGone',
        reason: 'The container web no longer exists.',
      },
    });
    act(() => {
      render(<EnvironmentView env={env} />);
    });
    expect(screen.getByRole('alert', { name: 'Container removed' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start container' })).toBeNull();
  });
});

describe('age', () => {
  it('says minutes, hours or days', () => {
    expect(age(null, NOW)).toBe('');
    expect(age(NOW - 59 * 60_000, NOW)).toBe('59 min');
    expect(age(NOW - 5 * 3_600_000, NOW)).toBe('5 h');
    expect(age(NOW - 4 * 86_400_000, NOW)).toBe('4 d');
  });
});
