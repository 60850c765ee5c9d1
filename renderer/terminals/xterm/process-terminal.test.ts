import '../../test/browser-stand-ins';
import { beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { setBridge } from '../../ipc/ipc-client';
import type { CommandOutput } from '../../../shared/ipc';
import { DEFAULT_SETTINGS } from '../../settings/settings-store';
import { FakeBridge } from '../../test/fake-bridge';
import { PASTE_CHUNK_CHARS } from './flow-limits';
import { ProcessTerminal } from './process-terminal';

let bridge: FakeBridge;
let release: (() => void)[];

beforeEach(() => {
  release = [];
  // Each write stays in flight until the test releases it, like a slow link.
  bridge = new FakeBridge().handle(
    'processes.write',
    () => new Promise((resolve) => release.push(() => resolve({ ok: true }))),
  );
  setBridge(bridge);
});

const writes = () => bridge.writtenText();

describe('ProcessTerminal input', () => {
  it('sends keystrokes at once without waiting for earlier writes', () => {
    const view = new ProcessTerminal({ envId: 'e', processId: 'p' }, DEFAULT_SETTINGS);
    view.terminal.input('l', true);
    view.terminal.input('s', true);
    expect(writes()).toEqual(['l', 's']);
    view.dispose();
  });

  it('pastes large text in awaited chunks, keeps later keys after it, and lets Ctrl-C cut in', async () => {
    const view = new ProcessTerminal({ envId: 'e', processId: 'p' }, DEFAULT_SETTINGS);
    const big = 'x'.repeat(PASTE_CHUNK_CHARS * 3);
    view.terminal.input(big, true);
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toHaveLength(PASTE_CHUNK_CHARS);
    view.terminal.input('y', true);
    release.shift()?.();
    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(writes()[1]).toHaveLength(PASTE_CHUNK_CHARS);

    view.terminal.input('\x03', true);
    expect(writes()[2]).toBe('\x03');
    release.splice(0).forEach((r) => r());
    await waitFor(() => expect(writes()).toContain('y'));
    // The rest of the paste was abandoned; the key typed after it still went out, in order.
    expect(writes()).toEqual([big.slice(0, PASTE_CHUNK_CHARS), big.slice(0, PASTE_CHUNK_CHARS), '\x03', 'y']);
    view.dispose();
  });
});

describe('ProcessTerminal replay', () => {
  const output = (seq: number, text: string) =>
    ({ kind: 'output', seq, stream: 'pty', data: new TextEncoder().encode(text) }) as const;
  // Primary and secondary device attributes, cursor position, background colour and a DEC mode query.
  const QUERIES = '\x1b[c\x1b[>c\x1b[6n\x1b]11;?\x1b\\\x1b[?2004$p';

  it('answers no query in replayed output, and answers live queries from the first live byte on', async () => {
    let finishReplay = (_result: CommandOutput<'processes.replay'>) => undefined as void;
    bridge
      .handle('processes.replay', () => new Promise((resolve) => (finishReplay = resolve)))
      .handle('processes.resize', () => ({ applied: true }))
      .handle('processes.ack', () => ({ ok: true }))
      .handle('processes.write', () => ({ ok: true }));
    const view = new ProcessTerminal({ envId: 'e', processId: 'p' }, DEFAULT_SETTINGS);
    const host = document.createElement('div');
    document.body.appendChild(host);
    view.attach(host);
    // A live query arrives while the replay is under way: it is held, then written right after
    // the replayed output, so its answer is the first thing xterm may send.
    view.pushLive([output(3, 'live\x1b[6n')]);
    finishReplay({
      events: [output(1, 'old' + QUERIES), output(2, QUERIES + 'history')],
      lastSeq: 2,
      shownThroughSeq: 2,
    });
    await waitFor(() => expect(writes()).not.toEqual([]));
    // Cursor at row 1, column 15: after "old", "history" and "live" (the queries print nothing).
    expect(writes()).toEqual(['\x1b[1;15R']);

    view.pushLive([output(4, '\x1b[c')]);
    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(writes()[1]).toBe('\x1b[?1;2c');
    // Keys typed once the replay is parsed go out as usual.
    view.terminal.input('x', true);
    expect(writes()[2]).toBe('x');
    view.dispose();
    host.remove();
  });

  it('answers queries in replayed output no terminal has shown yet, once, and says it has shown them', async () => {
    bridge
      .handle('processes.replay', () => ({
        // Seq 1 was parsed by a terminal before; seq 2, the program's first query, by none yet
        // (a new pane attaching after its process started).
        events: [output(1, 'old' + QUERIES), output(2, 'new\x1b[c')],
        lastSeq: 2,
        shownThroughSeq: 1,
      }))
      .handle('processes.resize', () => ({ applied: true }))
      .handle('processes.ack', () => ({ ok: true }))
      .handle('processes.write', () => ({ ok: true }));
    const view = new ProcessTerminal({ envId: 'e', processId: 'p' }, DEFAULT_SETTINGS);
    const host = document.createElement('div');
    document.body.appendChild(host);
    view.attach(host);
    await waitFor(() => expect(writes()).toEqual(['\x1b[?1;2c']));
    await waitFor(() => expect(bridge.callsOf('processes.ack').at(-1)?.shownThroughSeq).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(writes()).toEqual(['\x1b[?1;2c']);
    view.dispose();
    host.remove();
  });

  it('sends what the user types while the replay is still being parsed', async () => {
    bridge
      .handle('processes.replay', () => ({
        events: [output(1, 'old' + QUERIES)],
        lastSeq: 1,
        shownThroughSeq: 1,
      }))
      .handle('processes.resize', () => ({ applied: true }))
      .handle('processes.ack', () => ({ ok: true }))
      .handle('processes.write', () => ({ ok: true }));
    const view = new ProcessTerminal({ envId: 'e', processId: 'p' }, DEFAULT_SETTINGS);
    const host = document.createElement('div');
    document.body.appendChild(host);
    // Right when the replayed write is handed to xterm (before it is parsed), the user presses
    // Enter: a real key event on xterm's textarea, as after an app restart.
    const write = view.terminal.write.bind(view.terminal);
    let pressed = false;
    view.terminal.write = ((data: string | Uint8Array, done?: () => void) => {
      write(data, done);
      if (pressed) return;
      pressed = true;
      view.terminal.textarea?.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'Enter', keyCode: 13, bubbles: true, cancelable: true }),
      );
    }) as typeof view.terminal.write;
    view.attach(host);
    await waitFor(() => expect(pressed).toBe(true));
    // The key went out; none of xterm's answers to the replayed queries did.
    await waitFor(() => expect(writes()).toEqual(['\r']));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(writes()).toEqual(['\r']);
    view.dispose();
    host.remove();
  });
});
