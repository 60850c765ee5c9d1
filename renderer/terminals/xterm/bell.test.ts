// The terminal bell: BEL in a terminal's output rings as the `bell` setting says, changes with
// the setting on a live terminal, and notifies the OS only while the window is in the background.
import '../../test/browser-stand-ins';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { setBridge } from '../../ipc/ipc-client';
import { DEFAULT_SETTINGS } from '../../settings/settings-store';
import { useProcesses } from '../../processes/processes-store';
import { FakeBridge, makeProcess } from '../../test/fake-bridge';
import { BELL_FLASH_CLASS, TerminalBell } from './bell';
import { ProcessTerminal } from './process-terminal';

const shown: string[] = [];
class RecordingNotification {
  static permission = 'granted';
  constructor(_title: string, options: { body: string }) {
    shown.push(options.body);
  }
}

beforeEach(() => {
  shown.length = 0;
  setBridge(new FakeBridge().handle('processes.resize', () => ({ applied: true })));
  vi.stubGlobal('Notification', RecordingNotification);
});
afterEach(() => vi.unstubAllGlobals());

describe('the terminal bell', () => {
  it('flashes the pane on BEL in the output, and stops when the setting is off', async () => {
    const view = new ProcessTerminal({ envId: 'e', processId: 'p' }, { ...DEFAULT_SETTINGS, bell: 'visual' });
    const host = document.createElement('div');
    document.body.appendChild(host);
    view.attach(host);
    view.terminal.write('ding\x07');
    await waitFor(() => expect(view.element.classList.contains(BELL_FLASH_CLASS)).toBe(true));
    view.element.classList.remove(BELL_FLASH_CLASS);

    view.applySettings({ ...DEFAULT_SETTINGS, bell: 'off' });
    let written = false;
    view.terminal.write('\x07', () => (written = true));
    await waitFor(() => expect(written).toBe(true));
    expect(view.element.classList.contains(BELL_FLASH_CLASS)).toBe(false);
    view.dispose();
    host.remove();
  });

  it('notifies the OS with the process and environment only while the window is not focused', () => {
    useProcesses.getState().upsert(makeProcess({ envId: 'env-1', processId: 'p', title: 'make test' }));
    const element = document.createElement('div');
    const focused = vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    new TerminalBell({ envId: 'env-1', processId: 'p' }, element).ring('notify');
    expect(shown).toEqual([]);
    expect(element.classList.contains(BELL_FLASH_CLASS)).toBe(true);

    focused.mockReturnValue(false);
    new TerminalBell({ envId: 'env-1', processId: 'p' }, element).ring('notify');
    expect(shown).toEqual(['Bell in make test']);
  });
});
