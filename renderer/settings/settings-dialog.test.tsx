// The terminal settings as the user drives them (issue #14): fields are checked as typed with human
// messages (custom colours included), Save applies every setting to the open terminal at once
// (same xterm, scrollback kept), and the right-click setting switches between menu and paste.
import '../test/browser-stand-ins';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Settings } from '../../shared/ipc';
import { DEFAULT_SETTINGS, useSettings } from './settings-store';
import { useUi } from '../app/ui-store';
import type { FakeBridge } from '../test/fake-bridge';
import { withShellPane } from '../test/shell-pane';
import { terminalFor } from '../terminals/xterm/terminal-registry';
import { App } from '../app/app';

let bridge: FakeBridge;
let stop: (() => void) | null = null;

beforeEach(async () => {
  ({ bridge, stop } = await withShellPane({
    settings: { theme: 'light' },
    replay: () => 'line-before-the-change\r\n',
    handlers: (host) =>
      host
        // As the AppService does: the patch merged into the settings, checked by the contract.
        .handle('settings.update', (patch) =>
          Settings.parse({ ...useSettings.getState().settings, ...patch }),
        )
        .handle('processes.write', () => ({ ok: true })),
  }));
});
afterEach(() => {
  stop?.();
  cleanup();
});

const openSettings = () => {
  act(() => useUi.getState().openDialog({ kind: 'settings' }));
  return screen.getByRole('dialog', { name: 'Settings' });
};
const saveButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: 'Save' });

describe('the Settings dialog', () => {
  it('flags a number out of range in words and keeps Save off until it is fixed', async () => {
    const user = userEvent.setup();
    render(<App />);
    const dialog = openSettings();
    const size = within(dialog).getByLabelText('Font size');
    await user.clear(size);
    await user.type(size, '99');
    expect(within(dialog).getByText('Use a whole number from 8 to 32 px.')).toBeDefined();
    expect(size.getAttribute('aria-invalid')).toBe('true');
    expect(saveButton(dialog).hasAttribute('disabled')).toBe(true);
    await user.clear(size);
    await user.type(size, '16');
    expect(saveButton(dialog).hasAttribute('disabled')).toBe(false);
  });

  it('validates custom colours as typed, accepts them without "#", and saves the scheme', async () => {
    const user = userEvent.setup();
    render(<App />);
    const dialog = openSettings();
    await user.selectOptions(within(dialog).getByLabelText('Terminal colours'), 'custom');
    const red = within(dialog).getByLabelText('Red');
    // The editor starts from the scheme in use (Tether light, the theme here is light).
    expect((red as HTMLInputElement).value).toBe('#b3261e');
    await user.clear(red);
    await user.type(red, '#12345');
    expect(within(dialog).getByText('Use #rrggbb, e.g. #1e90ff')).toBeDefined();
    expect(saveButton(dialog).hasAttribute('disabled')).toBe(true);
    await user.clear(red);
    await user.type(red, '12AB56');
    expect(within(dialog).queryByText('Use #rrggbb, e.g. #1e90ff')).toBeNull();
    // Pale yellow on the light background is legal but hard to read: said beside it.
    const yellow = within(dialog).getByLabelText('Yellow');
    await user.clear(yellow);
    await user.type(yellow, '#fff8b0');
    expect(within(dialog).getByText(/^low contrast 1\.\d:1$/)).toBeDefined();
    await user.click(saveButton(dialog));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const saved = bridge.callsOf('settings.update').at(-1)!;
    expect(saved.scheme).toBe('custom');
    expect(saved.customScheme).toMatchObject({ red: '#12ab56', yellow: '#fff8b0', background: '#fbfbfc' });
  });

  it('applies every terminal setting to the open terminal at once, keeping the terminal and its text', async () => {
    const user = userEvent.setup();
    render(<App />);
    const mount = document.querySelector('.terminal-mount')!;
    await waitFor(() => expect(mount.textContent).toContain('line-before-the-change'));
    const view = terminalFor({ envId: 'env-1', processId: 'shell' }, useSettings.getState().settings);
    const xterm = view.terminal;
    const dialog = openSettings();
    const size = within(dialog).getByLabelText('Font size');
    await user.clear(size);
    await user.type(size, '18');
    const lineHeight = within(dialog).getByLabelText('Line height');
    await user.clear(lineHeight);
    await user.type(lineHeight, '1.3');
    await user.clear(within(dialog).getByLabelText('Letter spacing (px)'));
    await user.type(within(dialog).getByLabelText('Letter spacing (px)'), '2');
    await user.type(within(dialog).getByLabelText('Font family'), 'Fira Code');
    await user.selectOptions(within(dialog).getByLabelText('Cursor'), 'underline');
    await user.click(within(dialog).getByLabelText('Blinking cursor'));
    await user.selectOptions(within(dialog).getByLabelText('Terminal colours'), 'solarized-dark');
    await user.clear(within(dialog).getByLabelText('Scrollback lines'));
    await user.type(within(dialog).getByLabelText('Scrollback lines'), '2500');
    await user.click(saveButton(dialog));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    expect(terminalFor({ envId: 'env-1', processId: 'shell' }, DEFAULT_SETTINGS)).toBe(view);
    expect(view.terminal).toBe(xterm);
    expect(xterm.options).toMatchObject({
      fontSize: 18,
      lineHeight: 1.3,
      letterSpacing: 2,
      cursorStyle: 'underline',
      cursorBlink: false,
      scrollback: 2500,
      theme: { background: '#002b36' },
    });
    expect(xterm.options.fontFamily).toMatch(/^"Fira Code", "DejaVu Sans Mono"/);
    expect((mount as HTMLElement).style.backgroundColor).toBe('rgb(0, 43, 54)');
    expect(mount.textContent).toContain('line-before-the-change');
  });

  it('follows the app theme with the chosen light and dark schemes', async () => {
    const user = userEvent.setup();
    render(<App />);
    const view = terminalFor({ envId: 'env-1', processId: 'shell' }, useSettings.getState().settings);
    let dialog = openSettings();
    await user.selectOptions(within(dialog).getByLabelText('With the light theme'), 'solarized-light');
    await user.selectOptions(within(dialog).getByLabelText('With the dark theme'), 'high-contrast-dark');
    await user.click(saveButton(dialog));
    await waitFor(() => expect(view.terminal.options.theme?.background).toBe('#fdf6e3'));
    dialog = openSettings();
    await user.selectOptions(within(dialog).getByLabelText('App theme'), 'dark');
    await user.click(saveButton(dialog));
    await waitFor(() => expect(view.terminal.options.theme?.background).toBe('#000000'));
  });
});

describe('the right-click setting', () => {
  it('opens the menu by default, pastes when set to paste, and Shift+right click still opens the menu', async () => {
    render(<App />);
    const mount = document.querySelector('.terminal-mount')!;
    await navigator.clipboard.writeText('pasted-by-right-click');
    fireEvent.contextMenu(mount, { button: 2, clientX: 40, clientY: 40 });
    expect(screen.getByRole('menu', { name: 'Terminal' })).toBeDefined();
    fireEvent.keyDown(screen.getByRole('menu', { name: 'Terminal' }), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    act(() => useSettings.getState().set({ ...useSettings.getState().settings, rightClick: 'paste' }));
    fireEvent.contextMenu(mount, { button: 2, clientX: 40, clientY: 40 });
    expect(screen.queryByRole('menu')).toBeNull();
    await waitFor(() => expect(bridge.writtenText().join('')).toContain('pasted-by-right-click'));
    fireEvent.contextMenu(mount, { button: 2, shiftKey: true, clientX: 40, clientY: 40 });
    expect(screen.getByRole('menu', { name: 'Terminal' })).toBeDefined();
  });
});
