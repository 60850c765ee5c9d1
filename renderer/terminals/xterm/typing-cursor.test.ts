// A blinking cursor holds still while keys come: the terminal's host carries the class that turns
// xterm's blink animation off from the first key typed until the keys pause, then blinks again.
import '../../test/browser-stand-ins';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setBridge } from '../../ipc/ipc-client';
import { DEFAULT_SETTINGS } from '../../settings/settings-store';
import { FakeBridge } from '../../test/fake-bridge';
import { ProcessTerminal } from './process-terminal';
import { CURSOR_STILL_CLASS, CURSOR_STILL_MS } from './typing-cursor';

let typed: string[] = [];

beforeEach(() => {
  typed = [];
  setBridge(
    new FakeBridge()
      .handle('processes.resize', () => ({ applied: true }))
      .handle('processes.write', (input) => {
        typed.push(new TextDecoder().decode(input.data as Uint8Array));
        return { ok: true };
      }),
  );
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('the cursor while typing', () => {
  it('stays still from the first key until the keys pause, then blinks again', () => {
    const view = new ProcessTerminal({ envId: 'e', processId: 'p' }, DEFAULT_SETTINGS);
    const host = document.createElement('div');
    document.body.appendChild(host);
    view.attach(host);
    const still = () => view.element.classList.contains(CURSOR_STILL_CLASS);
    expect(still()).toBe(false);

    // xterm's input() is what a key press ends in: its onData.
    view.terminal.input('l');
    expect(still()).toBe(true);
    // Each key holds it still for another full pause.
    vi.advanceTimersByTime(CURSOR_STILL_MS - 100);
    view.terminal.input('s');
    vi.advanceTimersByTime(CURSOR_STILL_MS - 100);
    expect(still()).toBe(true);
    vi.advanceTimersByTime(100);
    expect(still()).toBe(false);

    // The keys went out as they were typed.
    expect(typed.join('')).toBe('ls');

    view.terminal.input('x');
    expect(still()).toBe(true);
    view.dispose();
    expect(still()).toBe(false);
    host.remove();
  });
});
