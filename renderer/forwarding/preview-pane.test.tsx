// Preview: *Open in an app tab* from a Ports row or the notice opens a preview pane (one per
// forward), which asks the desktop host for the forward's view, keeps it placed over its body (hidden
// under a dialog), shows the address, title and history the view reports, and says when its forward
// is gone. In web mode the same action opens a browser tab and no pane.
import '../test/browser-stand-ins';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ForwardView, PreviewState } from '../../shared/ipc';
import { App } from '../app/app';
import { useUi } from '../app/ui-store';
import { setHostKind } from '../ipc/host-kind';
import { browserTabLinkOpener } from '../ipc/link-opener';
import { retainShownContent } from '../panes/pane-kinds';
import { envPanes, leaves, usePanes } from '../panes/panes-store';
import type { FakeBridge } from '../test/fake-bridge';
import { withTwoEnvironments } from '../test/two-environments';
import { setLinkOpener } from '../web-links/link-actions';
import { useDetectedPorts } from './detected-ports';
import { useForwards } from './forwards-store';
import { usePreviews } from './previews-store';

const VITE: ForwardView = {
  id: 'auto-5173',
  envId: 'env-1',
  host: 'localhost',
  port: 5173,
  label: 'vite',
  state: 'forwarding',
  addresses: ['127.0.0.1:5175'],
  boundPort: 5175,
  remapped: true,
  error: null,
  auto: true,
  httpOnly: false,
  foundBy: 'printedUrl',
  process: { pid: 4242, name: 'vite' },
};

const BODY = { x: 200, y: 80, width: 600, height: 400 };

let bridge: FakeBridge;
let held: ForwardView[];
beforeEach(() => {
  bridge = withTwoEnvironments();
  usePreviews.setState({ byId: {} });
  held = [VITE];
  bridge.handle('forwards.list', () => held);
  bridge.handle('forwards.listening', () => []);
  bridge.handle('forwards.add', ({ port }) => {
    const added = { ...VITE, id: 'again', port };
    held = [added];
    return added;
  });
  bridge.handle('preview.open', ({ id }) => state({ id }));
  bridge.handle('preview.place', () => ({ ok: true }));
  bridge.handle('preview.navigate', () => ({ ok: true }));
  bridge.handle('preview.retain', () => ({ ok: true }));
  // jsdom has no layout: the preview body reports the place a real window would give it.
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const { x, y, width, height } = this.classList.contains('preview-body')
      ? BODY
      : { x: 0, y: 0, width: 0, height: 0 };
    return new DOMRect(x, y, width, height);
  });
  useUi.getState().showPanel('env-1', 'ports');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  setHostKind('electron');
});

function state(patch: Partial<PreviewState> = {}): PreviewState {
  return {
    id: 'env-1/auto-5173',
    url: 'http://localhost:5175/',
    title: '',
    loading: false,
    canGoBack: false,
    canGoForward: false,
    error: null,
    ...patch,
  };
}

const previewPanes = () =>
  envPanes(usePanes.getState().byEnv, 'env-1')
    .tabs.flatMap((t) => leaves(t.root))
    .filter((l) => l.content.kind === 'preview');
const lastPlace = () => bridge.callsOf('preview.place').at(-1);

describe('Preview pane (desktop app)', () => {
  it('opens from the Ports row, places the view over its body and follows what the view reports', async () => {
    const user = userEvent.setup();
    render(<App />);
    const row = await screen.findByRole('row', { name: 'Forward of port 5173' });
    await user.click(within(row).getByRole('button', { name: 'Open in an app tab port 5173' }));

    const pane = await screen.findByRole('region', { name: 'Preview of port 5173' });
    expect(useUi.getState().panelByEnv['env-1']).toBe('terminals');
    await waitFor(() =>
      expect(bridge.callsOf('preview.open')).toEqual([{ id: 'env-1/auto-5173', envId: 'env-1', port: 5175 }]),
    );
    await waitFor(() => expect(lastPlace()).toEqual({ id: 'env-1/auto-5173', bounds: BODY }));
    expect(within(pane).getByLabelText('Address').textContent).toBe('http://localhost:5175/');
    expect(within(pane).getByRole('button', { name: 'Back' })).toHaveProperty('disabled', true);

    act(() =>
      usePreviews
        .getState()
        .set(state({ url: 'http://localhost:5175/about', title: 'About — dev', canGoBack: true })),
    );
    expect(within(pane).getByLabelText('Address').textContent).toBe('http://localhost:5175/about');
    expect(screen.getByRole('tab', { name: /About — dev/ })).toBeTruthy();
    await user.click(within(pane).getByRole('button', { name: 'Back' }));
    await user.click(within(pane).getByRole('button', { name: 'Reload' }));
    await user.click(within(pane).getByRole('button', { name: 'Home' }));
    expect(bridge.callsOf('preview.navigate')).toEqual([
      { id: 'env-1/auto-5173', action: 'back' },
      { id: 'env-1/auto-5173', action: 'reload' },
      { id: 'env-1/auto-5173', action: 'home' },
    ]);

    // A dialog would be drawn under the native view: the view hides while one is open.
    act(() => useUi.getState().openDialog({ kind: 'forwardPort', envId: 'env-1' }));
    await waitFor(() => expect(lastPlace()).toEqual({ id: 'env-1/auto-5173', bounds: null }));
    act(() => useUi.getState().openDialog(null));
    await waitFor(() => expect(lastPlace()).toEqual({ id: 'env-1/auto-5173', bounds: BODY }));

    // The same forward again focuses the pane it has rather than opening a second.
    act(() => useUi.getState().showPanel('env-1', 'ports'));
    await user.click(
      within(await screen.findByRole('row', { name: 'Forward of port 5173' })).getByRole('button', {
        name: 'Open in an app tab port 5173',
      }),
    );
    expect(previewPanes()).toHaveLength(1);

    // Closing the pane closes its view (start-app.ts hands every layout change to the pane kinds).
    retainShownContent(usePanes.getState().byEnv);
    expect(bridge.callsOf('preview.retain').at(-1)).toEqual({ ids: ['env-1/auto-5173'] });
    await user.click(
      within(await screen.findByRole('region', { name: 'Preview of port 5173' })).getByRole('button', {
        name: 'Close pane',
      }),
    );
    expect(previewPanes()).toHaveLength(0);
    retainShownContent(usePanes.getState().byEnv);
    expect(bridge.callsOf('preview.retain').at(-1)).toEqual({ ids: [] });
  });

  it('opens from the notice, which names the process, and says when the forward is gone', async () => {
    const user = userEvent.setup();
    render(<App />);
    act(() => useDetectedPorts.getState().add(VITE.envId, [VITE]));
    const notice = screen.getByLabelText('Port 5173 forwarded');
    expect(notice.textContent).toMatch(/^Port 5173 \(vite\) → localhost:5175OpenPreviewIgnore$/);
    await user.click(within(notice).getByRole('button', { name: 'Preview' }));
    const pane = await screen.findByRole('region', { name: 'Preview of port 5173' });
    expect(screen.queryByLabelText('Port 5173 forwarded')).toBeNull();
    await waitFor(() => expect(bridge.callsOf('preview.open')).toHaveLength(1));

    // Its process ended: the auto forward went, and the view with it.
    held = [];
    act(() => useForwards.getState().setForEnv('env-1', []));
    expect(within(pane).getByText(/^Port 5173 is no longer forwarded/)).toBeTruthy();
    expect(within(pane).queryByLabelText('Page')).toBeNull();
    await waitFor(() => expect(lastPlace()).toEqual({ id: 'env-1/auto-5173', bounds: null }));
    // Forwarded again (by hand, or printed again), under a new id: the pane shows it once more.
    await user.click(within(pane).getByRole('button', { name: 'Forward port 5173 again' }));
    expect(bridge.callsOf('forwards.add')).toEqual([{ envId: 'env-1', host: 'localhost', port: 5173 }]);
    await waitFor(() => expect(within(pane).queryByLabelText('Page')).not.toBeNull());
    expect(within(pane).getByLabelText('Address').textContent).toBe('http://localhost:5175/');
  });
});

describe('Preview (web mode)', () => {
  it('opens the page in a new browser tab, and no pane', async () => {
    setHostKind('web');
    setLinkOpener(browserTabLinkOpener());
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const user = userEvent.setup();
    render(<App />);
    act(() => useDetectedPorts.getState().add(VITE.envId, [VITE]));
    await user.click(
      within(screen.getByLabelText('Port 5173 forwarded')).getByRole('button', { name: 'Preview' }),
    );
    await waitFor(() =>
      expect(open).toHaveBeenCalledWith('http://localhost:5175/', '_blank', 'noopener,noreferrer'),
    );
    expect(previewPanes()).toHaveLength(0);
    expect(bridge.callsOf('preview.open')).toEqual([]);
  });
});
