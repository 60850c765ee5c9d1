// Link protection for links programs print: the dialog asks first, Cancel opens nothing, Open opens
// once, and "always allow" skips the dialog for that host and only that host. Links reach it the
// way a click in a terminal does (xterm's web-links addon and its OSC 8 link handler).
import '../test/browser-stand-ins';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { requestOpenLink, setLinkOpener } from './link-actions';
import { appLinkOpener, browserTabLinkOpener } from '../ipc/link-opener';
import { DEFAULT_SETTINGS, useSettings } from '../settings/settings-store';
import { useUi } from '../app/ui-store';
import { ProcessTerminal } from '../terminals/xterm/process-terminal';
import type { FakeBridge } from '../test/fake-bridge';
import { withTwoEnvironments } from '../test/two-environments';
import { App } from '../app/app';

const LINK = 'https://evil.example/path?a=1&calc|x^"y"';
const HREF = new URL(LINK).href;

let bridge: FakeBridge;
beforeEach(() => {
  bridge = withTwoEnvironments();
  bridge.handle('shell.openExternal', () => ({ ok: true }));
  bridge.handle('settings.update', (patch) => ({ ...useSettings.getState().settings, ...patch }));
  setLinkOpener(appLinkOpener(bridge));
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const opened = () => bridge.callsOf('shell.openExternal').map((c) => c.url);
const dialog = () => screen.getByRole('dialog', { name: 'Open this link?' });
const noDialog = () => expect(screen.queryByRole('dialog')).toBeNull();
const clickLink = (url: string) => act(() => requestOpenLink(url, 'env-1'));

describe('Open link dialog', () => {
  it('asks first, showing the full URL, its host and where it came from', () => {
    render(<App />);
    clickLink(LINK);
    expect(within(dialog()).getByText(HREF)).toBeDefined();
    expect(within(dialog()).getByText('evil.example')).toBeDefined();
    expect(within(dialog()).getByText(/in Build box/)).toBeDefined();
    expect(opened()).toEqual([]);
  });

  it('opens nothing on Cancel', async () => {
    const user = userEvent.setup();
    render(<App />);
    clickLink(LINK);
    await user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    noDialog();
    expect(opened()).toEqual([]);
    expect(bridge.callsOf('settings.update')).toEqual([]);
  });

  it('opens the link once on Open, and asks again next time', async () => {
    const user = userEvent.setup();
    render(<App />);
    clickLink(LINK);
    await user.click(within(dialog()).getByRole('button', { name: 'Open' }));
    await waitFor(noDialog);
    expect(opened()).toEqual([HREF]);
    clickLink(LINK);
    expect(dialog()).toBeDefined();
    expect(opened()).toEqual([HREF]);
  });

  it('"always allow" skips the dialog next time for that host, and only that host', async () => {
    const user = userEvent.setup();
    render(<App />);
    clickLink(LINK);
    await user.click(within(dialog()).getByRole('button', { name: 'Always allow evil.example' }));
    await waitFor(noDialog);
    expect(opened()).toEqual([HREF]);
    expect(bridge.callsOf('settings.update')).toEqual([{ trustedLinkHosts: ['evil.example'] }]);

    clickLink('https://evil.example/other');
    noDialog();
    await waitFor(() => expect(opened()).toEqual([HREF, 'https://evil.example/other']));

    for (const other of [
      'https://other.example/',
      'https://evil.example.attacker.test/',
      'https://evil.example:8443/',
      'https://evil.example@attacker.test/',
    ]) {
      clickLink(other);
      expect(within(dialog()).getByText(new URL(other).host)).toBeDefined();
      await user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    }
    expect(opened()).toHaveLength(2);
  });

  it('explains a link it never opens instead of offering to open it', () => {
    render(<App />);
    clickLink('file:///etc/passwd');
    const refusal = screen.getByRole('dialog', { name: 'Link not opened' });
    expect(within(refusal).getByRole('alert').textContent).toContain('"file:" links are refused');
    expect(within(refusal).queryByRole('button', { name: 'Open' })).toBeNull();
    expect(opened()).toEqual([]);
  });

  it('opens a new tab from the page in web mode, without asking the host', async () => {
    const user = userEvent.setup();
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    setLinkOpener(browserTabLinkOpener());
    render(<App />);
    clickLink(LINK);
    await user.click(within(dialog()).getByRole('button', { name: 'Open' }));
    await waitFor(noDialog);
    expect(open.mock.calls).toEqual([[HREF, '_blank', 'noopener,noreferrer']]);
    expect(opened()).toEqual([]);
  });
});

describe('Links in a terminal', () => {
  it('asks before opening a plain URL in the output (web-links addon)', async () => {
    render(<App />);
    const view = new ProcessTerminal({ envId: 'env-1', processId: 'p' }, DEFAULT_SETTINGS);
    await new Promise<void>((resolve) => view.terminal.write(`see ${LINK} now\r\n`, resolve));
    const link = await firstLinkOnLine(view, 1);
    act(() => link.activate(new MouseEvent('click'), link.text));
    expect(within(dialog()).getByText(new URL(link.text).href)).toBeDefined();
    expect(opened()).toEqual([]);
    view.dispose();
  });

  it('asks before opening an OSC 8 hyperlink, whose visible text can hide its target', () => {
    render(<App />);
    const view = new ProcessTerminal({ envId: 'env-1', processId: 'p' }, DEFAULT_SETTINGS);
    const handler = view.terminal.options.linkHandler;
    act(() =>
      handler?.activate(new MouseEvent('click'), LINK, { start: { x: 1, y: 1 }, end: { x: 4, y: 1 } }),
    );
    expect(within(dialog()).getByText(HREF)).toBeDefined();
    expect(opened()).toEqual([]);
    view.dispose();
  });
});

describe('Trusted link hosts in Settings', () => {
  it('lists them, and "Ask again" takes one back on Save', async () => {
    const user = userEvent.setup();
    useSettings.getState().set({ ...DEFAULT_SETTINGS, trustedLinkHosts: ['a.example', 'b.example'] });
    render(<App />);
    act(() => useUi.getState().openDialog({ kind: 'settings' }));
    const settings = screen.getByRole('dialog', { name: 'Settings' });
    await user.click(within(settings).getByRole('button', { name: 'Ask again for a.example' }));
    await user.click(within(settings).getByRole('button', { name: 'Save' }));
    await waitFor(noDialog);
    expect(bridge.callsOf('settings.update').at(-1)?.trustedLinkHosts).toEqual(['b.example']);

    clickLink('https://a.example/');
    expect(dialog()).toBeDefined();
    await user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    clickLink('https://b.example/');
    noDialog();
    await waitFor(() => expect(opened()).toEqual(['https://b.example/']));
  });
});

interface ProvidedLink {
  text: string;
  activate(event: MouseEvent, text: string): void;
}
interface LinkProvider {
  provideLinks(line: number, callback: (links: ProvidedLink[] | undefined) => void): void;
}

/** The first link any registered provider (xterm's OSC 8 one, the web-links addon) finds on `line`. */
async function firstLinkOnLine(view: ProcessTerminal, line: number): Promise<ProvidedLink> {
  const core = (
    view.terminal as unknown as { _core: { _linkProviderService: { linkProviders: LinkProvider[] } } }
  )._core;
  const found = await Promise.all(
    core._linkProviderService.linkProviders.map(
      (provider) =>
        new Promise<ProvidedLink[]>((resolve) =>
          provider.provideLinks(line, (links) => resolve(links ?? [])),
        ),
    ),
  );
  const link = found.flat()[0];
  if (!link) throw new Error(`no link on line ${line}`);
  return link;
}
