import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within, fireEvent } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEnvironments } from '../environments/environments-store';
import { useProcesses } from '../processes/processes-store';
import { useUi } from '../app/ui-store';
import { makeEnv, makeProcess, type FakeBridge } from '../test/fake-bridge';
import { withFreshBridge } from '../test/fresh-bridge';
import { Sidebar } from '../app/sidebar';
import { EnvironmentDialog } from '../environments/environment-dialog';
import { ProcessesPanel } from '../processes/processes-panel';
import { HealthPanel } from '../health/health-panel';
import { FileBrowser } from '../files/file-browser';
import { NoticeStack } from './notice-stack';
import { useNotices } from './notices-store';
import { decodeBase64 } from '../terminals/xterm/base64';
import type { FileEntry } from '../../shared/ipc';

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withFreshBridge();
});
afterEach(cleanup);

describe('Sidebar', () => {
  it('lists environments with a status indicator that has an accessible name', () => {
    useEnvironments
      .getState()
      .setAll([
        makeEnv(),
        makeEnv({ id: 'env-2', name: 'Pi', link: { kind: 'reconnecting', since: 0, attempt: 2 } }),
      ]);
    render(<Sidebar />);
    expect(screen.getByRole('button', { name: 'Environment Build box' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Connection: connected, 3 ms' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Connection: reconnecting (attempt 2)' })).toBeTruthy();
  });
});

describe('Sidebar context menu', () => {
  it('connects, reconnects, edits, duplicates (without the token) and removes an environment', async () => {
    const user = userEvent.setup();
    bridge.handle('environments.add', (draft) => makeEnv({ id: 'env-3', name: draft.name }));
    useEnvironments.getState().setAll([makeEnv({ link: { kind: 'reconnecting', since: 0, attempt: 2 } })]);
    render(<Sidebar />);
    fireEvent.contextMenu(screen.getByRole('button', { name: 'Environment Build box' }), {
      clientX: 5,
      clientY: 5,
    });
    const menu = screen.getByRole('menu', { name: 'Actions for Build box' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Disconnect', 'Reconnect now', 'Edit…', 'Duplicate', 'Remove…']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Duplicate' }));
    await waitFor(() =>
      expect(bridge.callsOf('environments.add')).toEqual([
        { name: 'Build box (copy)', color: '#3b82f6', settings: { kind: 'ws', url: 'ws://127.0.0.1:9' } },
      ]),
    );
    fireEvent.contextMenu(screen.getByRole('button', { name: 'Environment Build box' }), {
      clientX: 5,
      clientY: 5,
    });
    await user.click(screen.getByRole('menuitem', { name: 'Remove…' }));
    expect(useUi.getState().dialog).toEqual({ kind: 'removeEnvironment', id: 'env-1' });
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
    const note = await screen.findByText('Saved tokens are encrypted with the OS keychain (kwallet6).');
    expect(note.className).toBe('field-note');
  });

  it('shows a notice until it is dismissed', async () => {
    const user = userEvent.setup();
    bridge.handle('app.dismissNotice', () => ({ ok: true }));
    useNotices.getState().add({ id: 'n1', level: 'warning', message: 'Tokens are not encrypted.', at: 0 });
    render(<NoticeStack />);
    expect(screen.getByRole('alert').textContent).toContain('Tokens are not encrypted.');
    await user.click(screen.getByRole('button', { name: 'Dismiss notice' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(bridge.callsOf('app.dismissNotice')).toEqual([{ id: 'n1' }]);
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

describe('HealthPanel', () => {
  it('shows percentiles, reconnects, the state timeline and server info', () => {
    render(<HealthPanel env={makeEnv()} />);
    expect(screen.getByText('RTT p95').nextSibling?.textContent).toBe('5 ms');
    expect(screen.getByText('Reconnects').nextSibling?.textContent).toBe('2');
    expect(screen.getByRole('img', { name: /RTT over the last 2 s, latest 4 ms/ })).toBeTruthy();
    const timeline = screen.getByRole('region', { name: 'Timeline' });
    expect(within(timeline).getByText(/reconnecting — socket closed/)).toBeTruthy();
    const server = screen.getByRole('region', { name: 'Server' });
    const row = (label: string) => within(server).getByText(label).nextSibling?.textContent;
    expect(row('Shell')).toBe('bash (/bin/bash)');
    expect(row('Server directory')).toBe('/home/u/my project');
    expect(row('TMPDIR')).toBe('/scratch/tmp');
    expect(row('Capabilities')).toBe('tetherFlowControl, tetherProcessResize');
    expect(row('providerId')).toBe('build-7');
  });
});

describe('FileBrowser', () => {
  const entry = (name: string, kind: FileEntry['kind'], size: number | null): FileEntry => ({
    name,
    path: `/home/u/${name}`,
    kind,
    size,
    modifiedAtMs: 1_700_000_000_000,
    hidden: false,
  });

  it('lists a folder, sorts by size, previews text and uploads dropped files in ordered chunks', async () => {
    const user = userEvent.setup();
    bridge.handle('files.home', () => ({ home: '/home/u', cwd: '/home/u' }));
    bridge.handle('files.list', ({ path }) => ({
      path,
      entries: [entry('b.txt', 'file', 10), entry('a.log', 'file', 5_000), entry('src', 'directory', null)],
    }));
    bridge.handle('files.preview', () => ({
      kind: 'text',
      text: 'hello from b',
      truncated: false,
      size: 12,
    }));
    const chunks: { offset: number; data: string; last: boolean }[] = [];
    bridge.handle('transfers.startUpload', ({ envId, remotePath, totalBytes }) => ({
      id: 't1',
      envId,
      direction: 'upload',
      remotePath,
      name: 'big.bin',
      totalBytes,
      doneBytes: 0,
      rate: 0,
      state: 'running',
      error: null,
      startedAt: Date.now(),
      endedAt: null,
    }));
    bridge.handle('transfers.uploadChunk', ({ offset, dataBase64, last }) => {
      chunks.push({ offset, data: dataBase64, last });
      return { ok: true };
    });
    bridge.handle('files.existing', () => ({ names: [] }));

    render(<FileBrowser env={makeEnv()} />);
    const table = await screen.findByRole('table', { name: 'Folder contents' });
    await within(table).findByText(/b\.txt/);
    const names = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => (r as HTMLTableRowElement).cells[0]?.textContent);
    expect(names()).toEqual(['src', 'a.log', 'b.txt']);
    await user.click(within(table).getByRole('button', { name: 'Size' }));
    expect(names()).toEqual(['src', 'b.txt', 'a.log']);

    await user.click(within(table).getByRole('button', { name: 'b.txt' }));
    expect(await screen.findByText('hello from b')).toBeTruthy();

    const bytes = new Uint8Array(700 * 1024).map((_, i) => i % 251);
    const file = new File([bytes], 'big.bin');
    fireEvent.drop(screen.getByRole('region', { name: 'Files' }), { dataTransfer: { files: [file] } });
    await waitFor(() => expect(chunks.at(-1)?.last).toBe(true));
    expect(bridge.callsOf('transfers.startUpload')[0]).toEqual({
      envId: 'env-1',
      remotePath: '/home/u/big.bin',
      totalBytes: bytes.length,
      ifExists: 'fail',
    });
    expect(chunks.map((c) => c.offset)).toEqual([0, 512 * 1024]);
    const joined = new Uint8Array(chunks.flatMap((c) => [...decodeBase64(c.data)]));
    expect(joined).toEqual(bytes);
  });

  it('loads the folder again when the first load fails right at connect', async () => {
    let calls = 0;
    bridge.handle('files.home', () => {
      calls += 1;
      if (calls === 1) throw new Error('the link is not ready');
      return { home: '/home/u', cwd: '/home/u' };
    });
    bridge.handle('files.list', ({ path }) => ({ path, entries: [entry('later.txt', 'file', 1)] }));
    render(<FileBrowser env={makeEnv()} />);
    expect(await screen.findByText('later.txt', {}, { timeout: 10_000 })).toBeTruthy();
    expect(calls).toBe(2);
  });

  it('asks before deleting', async () => {
    const user = userEvent.setup();
    bridge.handle('files.home', () => ({ home: '/home/u', cwd: '/home/u' }));
    bridge.handle('files.list', ({ path }) => ({ path, entries: [entry('old.txt', 'file', 1)] }));
    bridge.handle('files.delete', () => ({ ok: true }));
    render(<FileBrowser env={makeEnv()} />);
    await user.click(await screen.findByRole('button', { name: 'More actions for old.txt' }));
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete old.txt?' });
    expect(bridge.callsOf('files.delete')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(bridge.callsOf('files.delete')).toEqual([{ envId: 'env-1', path: '/home/u/old.txt' }]),
    );
  });
});
