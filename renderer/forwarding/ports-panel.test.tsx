// The Ports panel: each forward with its host port, local address, state, process and how it was
// found; Open in browser, Copy URL, Change local port and Stop send their commands; *Forward a
// port…* checks its fields, from the panel and from the palette command. The host's other listening
// ports with their processes; the notices of detected ports, one or summarised.
import '../test/browser-stand-ins';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ForwardView, ListeningPortView } from '../../shared/ipc';
import { App } from '../app/app';
import { useUi } from '../app/ui-store';
import { appLinkOpener } from '../ipc/link-opener';
import { appCommands } from '../palette/commands';
import type { FakeBridge } from '../test/fake-bridge';
import { withTwoEnvironments } from '../test/two-environments';
import { setLinkOpener } from '../web-links/link-actions';
import { useForwards } from './forwards-store';
import { LISTENING_POLL_MS } from './ports-panel';
import { useDetectedPorts } from './detected-ports';

function forward(patch: Partial<ForwardView> = {}): ForwardView {
  const port = patch.port ?? 5173;
  return {
    id: `f-${port}`,
    envId: 'env-1',
    host: 'localhost',
    port,
    state: 'forwarding',
    addresses: [`127.0.0.1:${patch.boundPort ?? port}`, `[::1]:${patch.boundPort ?? port}`],
    boundPort: port,
    remapped: false,
    error: null,
    auto: false,
    httpOnly: false,
    foundBy: 'byHand',
    process: null,
    ...patch,
  };
}

let bridge: FakeBridge;
/** What the fake AppService holds for env-1. */
let held: ForwardView[];
/** The ports the fake host listens on. */
let listening: ListeningPortView[];
const listener = (port: number, process: ListeningPortView['process'] = null): ListeningPortView => ({
  port,
  process,
  startedByTether: false,
});
beforeEach(() => {
  bridge = withTwoEnvironments();
  held = [
    forward({ label: 'vite' }),
    forward({
      port: 8080,
      boundPort: 8081,
      remapped: true,
      state: 'nothingListening',
      addresses: ['127.0.0.1:8081'],
    }),
    forward({ port: 3000, state: 'linkDown' }),
  ];
  bridge.handle('forwards.list', () => held);
  bridge.handle('forwards.listening', () => listening);
  bridge.handle('forwards.stop', ({ id }) => {
    held = held.filter((f) => f.id !== id);
    return { ok: true };
  });
  bridge.handle('forwards.setLocalPort', ({ id, localPort }) => {
    held = held.map((f) =>
      f.id === id
        ? forward({ ...f, localPort, boundPort: localPort, addresses: [`127.0.0.1:${localPort}`] })
        : f,
    );
    return held.find((f) => f.id === id)!;
  });
  bridge.handle('forwards.add', ({ port, localPort, label }) => {
    const added = forward({ port, boundPort: localPort || port, ...(label ? { label } : {}) });
    held = [...held, added];
    return added;
  });
  listening = [];
  bridge.handle('shell.openExternal', () => ({ ok: true }));
  setLinkOpener(appLinkOpener(bridge));
  useUi.getState().showPanel('env-1', 'ports');
});
afterEach(cleanup);

const row = (port: number) => screen.getByRole('row', { name: `Forward of port ${port}` });
const cells = (port: number) =>
  within(row(port))
    .getAllByRole('cell')
    .slice(0, 6)
    .map((c) => c.textContent);

describe('Ports panel', () => {
  it('shows each forward with its local address and state, and the list as last sent', async () => {
    render(<App />);
    await waitFor(() =>
      expect(cells(5173)).toEqual(['5173', '127.0.0.1:5173', 'forwarding', '—', 'by hand', 'vite']),
    );
    expect(cells(8080)).toEqual([
      '8080',
      '127.0.0.1:8081 (remapped)',
      'nothing listening',
      '—',
      'by hand',
      '',
    ]);
    expect(cells(3000)[2]).toBe('link down');
    // forwards.changed carries the whole list; the panel shows just that.
    act(() => useForwards.getState().setForEnv('env-1', [forward({ port: 3000 })]));
    expect(screen.queryByRole('row', { name: 'Forward of port 5173' })).toBeNull();
    expect(cells(3000)[2]).toBe('forwarding');
    // Against a codex server a forward carries plain HTTP only, and says so.
    act(() => useForwards.getState().setForEnv('env-1', [forward({ port: 3000, httpOnly: true })]));
    expect(cells(3000)[2]).toBe('forwarding HTTP only (codex server)');
  });

  it('opens, copies, changes the local port of and stops a forward', async () => {
    const user = userEvent.setup();
    render(<App />);
    await waitFor(() => row(8080));
    await user.click(within(row(8080)).getByRole('button', { name: 'Open in browser port 8080' }));
    await waitFor(() =>
      expect(bridge.callsOf('shell.openExternal')).toEqual([{ url: 'http://localhost:8081/' }]),
    );
    await user.click(within(row(5173)).getByRole('button', { name: 'Copy URL port 5173' }));
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe('http://localhost:5173/'));

    await user.click(within(row(5173)).getByRole('button', { name: 'More actions for port 5173' }));
    await user.click(screen.getByRole('menuitem', { name: 'Change local port…' }));
    const change = screen.getByRole('dialog', { name: 'Local port for port 5173' });
    const field = within(change).getByLabelText('Local port');
    await user.clear(field);
    await user.type(field, '70000');
    await user.click(within(change).getByRole('button', { name: 'Change' }));
    expect(within(change).getByText('Enter a port from 0 to 65535 (0: any free one).')).toBeTruthy();
    await user.clear(field);
    await user.type(field, '5174');
    await user.click(within(change).getByRole('button', { name: 'Change' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bridge.callsOf('forwards.setLocalPort')).toEqual([
      { envId: 'env-1', id: 'f-5173', localPort: 5174 },
    ]);
    await waitFor(() => expect(cells(5173)[1]).toBe('127.0.0.1:5174'));

    await user.click(within(row(3000)).getByRole('button', { name: 'Stop port 3000' }));
    expect(bridge.callsOf('forwards.stop')).toEqual([{ envId: 'env-1', id: 'f-3000' }]);
    await waitFor(() => expect(screen.queryByRole('row', { name: 'Forward of port 3000' })).toBeNull());
  });

  it('forwards a port by hand, from the panel and from the palette command', async () => {
    const user = userEvent.setup();
    render(<App />);
    await user.click(await screen.findByRole('button', { name: 'Forward a port…' }));
    let dialog = screen.getByRole('dialog', { name: 'Forward a port' });
    await user.type(within(dialog).getByLabelText('Port on the host'), 'abc');
    await user.click(within(dialog).getByRole('button', { name: 'Forward' }));
    expect(within(dialog).getByText('Enter a port from 1 to 65535.')).toBeTruthy();
    expect(bridge.callsOf('forwards.add')).toEqual([]);
    await user.clear(within(dialog).getByLabelText('Port on the host'));
    await user.type(within(dialog).getByLabelText('Port on the host'), '9000');
    await user.type(within(dialog).getByLabelText(/^Local port/), '0');
    await user.type(within(dialog).getByLabelText('Label'), 'api');
    await user.click(within(dialog).getByRole('button', { name: 'Forward' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bridge.callsOf('forwards.add')).toEqual([
      { envId: 'env-1', host: 'localhost', port: 9000, localPort: 0, label: 'api' },
    ]);
    await waitFor(() => expect(cells(9000)[5]).toBe('api'));

    // From the palette, with another panel showing: it shows Ports and asks there.
    act(() => useUi.getState().showPanel('env-1', 'files'));
    const command = appCommands().find((c) => c.label === 'Ports: forward a port…');
    act(() => command!.run());
    dialog = screen.getByRole('dialog', { name: 'Forward a port' });
    expect(screen.getByRole('tab', { name: 'Ports' }).getAttribute('aria-selected')).toBe('true');
    await user.type(within(dialog).getByLabelText('Port on the host'), '4000');
    await user.click(within(dialog).getByRole('button', { name: 'Forward' }));
    await waitFor(() =>
      expect(bridge.callsOf('forwards.add')[1]).toEqual({ envId: 'env-1', host: 'localhost', port: 4000 }),
    );
  });
});

describe('Ports listening on the host', () => {
  it('lists those no forward covers with their processes, polled while the panel shows, and forwards one on request', async () => {
    const user = userEvent.setup();
    listening = [listener(3000, { pid: 41, name: 'node' }), listener(9229)];
    held = [
      ...held,
      forward({ port: 4000, auto: true, foundBy: 'listeningSocket', process: { pid: 42, name: 'vite' } }),
    ];
    render(<App />);
    const detected = await screen.findByRole('region', { name: 'Detected on the host' });
    // 3000 is forwarded already: only 9229 is offered, its process unknown (codex says none).
    expect(
      within(detected)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['9229unknown processForward']);
    // A forward shows the process it was found through, or the one the host says listens.
    await waitFor(() => expect(cells(3000).slice(3, 5)).toEqual(['node (41)', 'by hand']));
    expect(cells(4000).slice(3, 6)).toEqual(['vite (42)', 'listening socket', ' (auto)']);
    listening = [listener(3000), listener(9229), listener(6006, { pid: 43, name: 'storybook' })];
    await waitFor(
      () => expect(within(detected).getByRole('button', { name: 'Forward port 6006' })).toBeTruthy(),
      { timeout: LISTENING_POLL_MS + 2_000 },
    );
    await user.click(within(detected).getByRole('button', { name: 'Forward port 9229' }));
    expect(bridge.callsOf('forwards.add')).toEqual([{ envId: 'env-1', host: 'localhost', port: 9229 }]);
    expect(within(detected).getByLabelText('Port 6006 listening').textContent).toBe(
      '6006storybook (43)Forward',
    );
    await waitFor(() => expect(cells(9229)[2]).toBe('forwarding'));
    expect(within(detected).queryByRole('button', { name: 'Forward port 9229' })).toBeNull();
    // Nothing was forwarded by itself.
    expect(bridge.callsOf('forwards.add')).toHaveLength(1);
  });
});

describe('Forwarded-port notice', () => {
  it('says which port of which process was forwarded, once per port, and opens it', async () => {
    const user = userEvent.setup();
    render(<App />);
    const detected = forward({
      id: 'auto-1',
      port: 5173,
      boundPort: 5175,
      auto: true,
      foundBy: 'listeningSocket',
      process: { pid: 40, name: 'vite' },
      label: 'vite',
    });
    act(() => useDetectedPorts.getState().add('env-1', [detected]));
    const notice = screen.getByLabelText('Port 5173 forwarded');
    expect(notice.textContent).toContain('Port 5173 (vite) → localhost:5175');
    await user.click(within(notice).getByRole('button', { name: 'Ignore' }));
    expect(screen.queryByLabelText('Port 5173 forwarded')).toBeNull();
    // The same port again (the dev server restarted): no second notice this session.
    act(() => useDetectedPorts.getState().add('env-1', [{ ...detected, id: 'auto-2' }]));
    expect(screen.queryByLabelText('Port 5173 forwarded')).toBeNull();

    act(() => useDetectedPorts.getState().add('env-1', [forward({ id: 'auto-3', port: 3000, auto: true })]));
    await user.click(
      within(screen.getByLabelText('Port 3000 forwarded')).getByRole('button', { name: 'Open' }),
    );
    await waitFor(() =>
      expect(bridge.callsOf('shell.openExternal')).toEqual([{ url: 'http://localhost:3000/' }]),
    );
    expect(screen.queryByLabelText('Port 3000 forwarded')).toBeNull();
  });

  it('summarises many ports found together in one notice, which shows the Ports panel', async () => {
    const user = userEvent.setup();
    act(() => useUi.getState().showPanel('env-1', 'files'));
    render(<App />);
    const many = Array.from({ length: 50 }, (_, i) =>
      forward({ id: `auto-${i}`, port: 7000 + i, auto: true, process: { pid: 50, name: 'node' } }),
    );
    act(() => useDetectedPorts.getState().add('env-1', many));
    expect(screen.getAllByRole('status', { name: 'Forwarded ports' })).toHaveLength(1);
    const notice = screen.getByLabelText('50 ports forwarded');
    expect(notice.textContent).toContain('50 ports forwarded (node): 7000, 7001, 7002 and 47 more');
    expect(within(notice).queryByRole('button', { name: 'Open' })).toBeNull();
    await user.click(within(notice).getByRole('button', { name: 'Show ports' }));
    expect(screen.queryByLabelText('50 ports forwarded')).toBeNull();
    expect(screen.getByRole('tab', { name: 'Ports' }).getAttribute('aria-selected')).toBe('true');
  });
});
