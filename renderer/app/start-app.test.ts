import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { setBridge } from '../ipc/ipc-client';
import { envPanes, leaves, usePanes, terminalContent, processIdOf } from '../panes/panes-store';
import { useProcesses } from '../processes/processes-store';
import { useEnvironments } from '../environments/environments-store';
import { useUi } from './ui-store';
import { useToasts } from '../ui/toasts-store';
import { FakeBridge, makeEnv, makeProcess } from '../test/fake-bridge';
import { resetStores } from '../test/reset-stores';
import { startApp } from './start-app';
import { flushEnvironmentChanges } from '../environments/environment-changes';
import { DEFAULT_SETTINGS } from '../settings/settings-store';

let bridge: FakeBridge;
let stop: (() => void) | null = null;
const local = makeEnv({
  id: 'local',
  name: 'Local',
  settings: { kind: 'local' },
  link: { kind: 'connecting', since: 0 },
});

beforeEach(() => {
  resetStores();
  bridge = new FakeBridge()
    .handle('environments.list', () => [local])
    .handle('settings.get', () => ({ ...DEFAULT_SETTINGS, scrollback: 5000, theme: 'system' }))
    .handle('transfers.list', () => [])
    .handle('processes.list', () => [])
    .handle('processes.start', (input) => makeProcess({ envId: input.envId, processId: 'shell-1' }))
    .handle('processes.ack', () => ({ ok: true }));
  // The host's own answer: only the first renderer of its run is the first.
  let claimed = false;
  bridge.handle('app.claimStartup', () => {
    const first = !claimed;
    claimed = true;
    return { first };
  });
  setBridge(bridge);
});
afterEach(() => stop?.());

/** The layout the host restores: Local with one tab on `processId`. */
function localTabOn(processId: string) {
  const tab = { id: 't1', root: { type: 'leaf' as const, id: 'l1', content: terminalContent(processId) } };
  return { byEnv: { local: { tabs: [{ ...tab, focusedPaneId: 'l1' }], activeTabId: 't1' } } };
}

describe('startApp', () => {
  it('opens a shell in the Local environment once it connects, at the host start only (not at a reload)', async () => {
    stop = await startApp();
    expect(bridge.callsOf('processes.start')).toHaveLength(0);
    bridge.emit('environments.changed', { ...local, link: { kind: 'connected', since: 1 } });
    await waitFor(() => expect(envPanes(usePanes.getState().byEnv, 'local').tabs).toHaveLength(1));
    expect(bridge.callsOf('processes.start')).toEqual([{ envId: 'local', tty: true }]);
    const tab = envPanes(usePanes.getState().byEnv, 'local').tabs[0]!;
    expect(processIdOf(leaves(tab.root)[0]!)).toBe('shell-1');
    expect(useUi.getState().activeEnvId).toBe('local');

    stop();
    stop = await startApp();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(bridge.callsOf('processes.start')).toHaveLength(1);
  });

  it('leaves the first-launch shell in the background when the user went to another panel meanwhile', async () => {
    stop = await startApp();
    useUi.getState().showPanel('local', 'files');
    bridge.emit('environments.changed', { ...local, link: { kind: 'connected', since: 1 } });
    await waitFor(() => expect(envPanes(usePanes.getState().byEnv, 'local').tabs).toHaveLength(1));
    expect(useUi.getState().panelByEnv['local']).toBe('files');
  });

  it('keeps the panel the user went to while the first-launch shell was starting', async () => {
    let started: () => void = () => undefined;
    bridge.handle(
      'processes.start',
      (input) =>
        new Promise((resolve) => {
          started = () => resolve(makeProcess({ envId: input.envId, processId: 'shell-1' }));
        }),
    );
    stop = await startApp();
    bridge.emit('environments.changed', { ...local, link: { kind: 'connected', since: 1 } });
    await waitFor(() => expect(bridge.callsOf('processes.start')).toHaveLength(1));
    // The click lands while the start is on its way.
    useUi.getState().showPanel('local', 'files');
    started();
    await waitFor(() => expect(envPanes(usePanes.getState().byEnv, 'local').tabs).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(useUi.getState().panelByEnv['local']).toBe('files');
  });

  it('after a restart, opens a Local shell when every Local pane shows an ended process', async () => {
    const remote = makeEnv({ id: 'remote', name: 'Remote', link: { kind: 'connected', since: 0 } });
    const connected = { ...local, link: { kind: 'connected' as const, since: 1 } };
    bridge
      .handle('environments.list', () => [remote, connected])
      .handle('processes.list', ({ envId }) =>
        envId === 'local' ? [makeProcess({ envId, processId: 'old', state: 'exited', exitCode: 3 })] : [],
      )
      .handle('layout.get', () => localTabOn('old'))
      .handle('layout.save', () => ({ ok: true }));
    useUi.getState().selectEnv('remote');
    stop = await startApp();
    await waitFor(() => expect(envPanes(usePanes.getState().byEnv, 'local').tabs).toHaveLength(2));
    expect(bridge.callsOf('processes.start')).toEqual([{ envId: 'local', tty: true }]);
    // The ended process keeps its tab; the view stays where the user was.
    expect(processIdOf(leaves(envPanes(usePanes.getState().byEnv, 'local').tabs[0]!.root)[0]!)).toBe('old');
    expect(useUi.getState().activeEnvId).toBe('remote');
  });

  it('after a restart, leaves a tab the user opened while the startup shell was starting in front', async () => {
    const connected = { ...local, link: { kind: 'connected' as const, since: 1 } };
    let started: (() => void) | null = null;
    bridge
      .handle('environments.list', () => [connected])
      .handle('processes.list', ({ envId }) =>
        envId === 'local' ? [makeProcess({ envId, processId: 'old', state: 'exited', exitCode: 3 })] : [],
      )
      .handle(
        'processes.start',
        (input) =>
          new Promise((resolve) => {
            started = () => resolve(makeProcess({ envId: input.envId, processId: 'startup' }));
          }),
      )
      .handle('layout.get', () => localTabOn('old'))
      .handle('layout.save', () => ({ ok: true }));
    stop = await startApp();
    await waitFor(() => expect(started).not.toBeNull());
    // The user's own new terminal, opened while the startup shell is on its way.
    usePanes.getState().openTab('local', terminalContent('mine'));
    started!();
    await waitFor(() => expect(envPanes(usePanes.getState().byEnv, 'local').tabs).toHaveLength(3));
    const panes = envPanes(usePanes.getState().byEnv, 'local');
    const shown = panes.tabs.find((t) => t.id === panes.activeTabId)!;
    expect(processIdOf(leaves(shown.root)[0]!)).toBe('mine');
  });

  it('after a restart, opens no Local shell while a Local pane shows a running one', async () => {
    const connected = { ...local, link: { kind: 'connected' as const, since: 1 } };
    bridge
      .handle('environments.list', () => [connected])
      .handle('processes.list', () => [makeProcess({ envId: 'local', processId: 'live' })])
      .handle('layout.get', () => localTabOn('live'))
      .handle('layout.save', () => ({ ok: true }));
    stop = await startApp();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(bridge.callsOf('processes.start')).toHaveLength(0);
  });

  it('keeps stores in step with events and acknowledges output of processes no pane shows', async () => {
    stop = await startApp();
    bridge.emit('processes.changed', makeProcess({ envId: 'local', processId: 'bg' }));
    expect(useProcesses.getState().byKey['local\nbg']?.state).toBe('running');
    bridge.emit('processes.events', [
      {
        envId: 'local',
        processId: 'bg',
        events: [
          { kind: 'output', seq: 1, stream: 'stdout', data: new TextEncoder().encode('12345') },
          { kind: 'exited', seq: 2, exitCode: 0 },
        ],
      },
    ]);
    expect(bridge.callsOf('processes.ack')).toEqual([{ envId: 'local', processId: 'bg', deltaBytes: 5 }]);
    bridge.emit('environments.removed', { id: 'local' });
    expect(useEnvironments.getState().order).toEqual([]);
    expect(useProcesses.getState().byKey).toEqual({});
  });

  it('passes the window coming online or regaining focus on as "the network may be back"', async () => {
    bridge.handle('environments.networkMayBeBack', () => ({ ok: true }));
    stop = await startApp();
    expect(bridge.callsOf('environments.networkMayBeBack')).toHaveLength(0);
    window.dispatchEvent(new Event('online'));
    window.dispatchEvent(new Event('focus'));
    expect(bridge.callsOf('environments.networkMayBeBack')).toHaveLength(2);
    stop();
    stop = null;
    window.dispatchEvent(new Event('focus'));
    expect(bridge.callsOf('environments.networkMayBeBack'), 'no listener left once stopped').toHaveLength(2);
  });

  it('runs a command the native menu chose, from the same registry as the palette', async () => {
    stop = await startApp();
    bridge.emit('app.menuCommand', { id: 'commandPalette' });
    expect(useUi.getState().dialog).toEqual({ kind: 'commandPalette' });
    bridge.emit('app.menuCommand', { id: 'no-such-command' });
    expect(useUi.getState().dialog).toEqual({ kind: 'commandPalette' });
  });

  it('toasts a background process that ended, a finished or failed transfer, and a failed link', async () => {
    stop = await startApp();
    const messages = () => useToasts.getState().list.map((t) => t.message);
    bridge.emit('processes.changed', makeProcess({ envId: 'local', processId: 'bg', title: 'make' }));
    bridge.emit(
      'processes.changed',
      makeProcess({ envId: 'local', processId: 'bg', title: 'make', state: 'exited', exitCode: 2 }),
    );
    // A process a pane shows tells it there; no toast.
    usePanes.getState().openTab('local', terminalContent('shown'));
    bridge.emit('processes.changed', makeProcess({ envId: 'local', processId: 'shown', title: 'bash' }));
    bridge.emit(
      'processes.changed',
      makeProcess({ envId: 'local', processId: 'shown', title: 'bash', state: 'exited', exitCode: 0 }),
    );
    const transfer = {
      id: 't1',
      envId: 'local',
      direction: 'upload' as const,
      remotePath: '/tmp/a.bin',
      name: 'a.bin',
      totalBytes: 10,
      doneBytes: 0,
      rate: 0,
      state: 'running' as const,
      error: null,
      startedAt: 1,
      endedAt: null,
    };
    bridge.emit('transfers.changed', transfer);
    bridge.emit('transfers.changed', { ...transfer, state: 'done', doneBytes: 10 });
    bridge.emit('transfers.changed', { ...transfer, id: 't2', state: 'failed', error: 'disk full' });
    bridge.emit('environments.changed', { ...local, link: { kind: 'failed', since: 2, reason: 'gone' } });
    flushEnvironmentChanges();
    expect(messages()).toEqual([
      'make exited with code 2.',
      'Upload of a.bin finished.',
      'Upload of a.bin failed: disk full',
      'The link to Local failed. Its view says why.',
    ]);
  });
  it("opens a preview page's link to elsewhere as a terminal's link: asked first for an untrusted host", async () => {
    stop = await startApp();
    bridge.emit('preview.openLink', { id: 'local/f-1', envId: 'local', url: 'https://docs.example/guide' });
    expect(useUi.getState().dialog).toEqual({
      kind: 'openLink',
      url: 'https://docs.example/guide',
      envId: 'local',
    });
  });
});
