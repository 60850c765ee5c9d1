import '../../test/browser-stand-ins';
import { describe, expect, it } from 'vitest';
import { Terminal } from '@xterm/xterm';
import { backgroundDefaultAfter, PredictiveEcho, type PredictiveEchoMode } from './predictive-echo';

const PROMPT = '$ ';
/** Short, so the no-echo tests wait a few tens of ms, not the app's 300. */
const TEST_TIMEOUT_MS = 40;

/**
 * A real xterm fed by a "host" through PredictiveEcho, beside a reference xterm fed the host's bytes
 * alone: whatever was predicted, the two must end cell for cell alike.
 */
function rig(options: { mode?: PredictiveEchoMode; rttMs?: number } = {}) {
  const settings = { mode: options.mode ?? 'always', rttMs: options.rttMs ?? 100 };
  const terminal = new Terminal({ cols: 30, rows: 6, allowProposedApi: true });
  const reference = new Terminal({ cols: 30, rows: 6, allowProposedApi: true });
  const echo = new PredictiveEcho(terminal, {
    mode: () => settings.mode,
    rttMs: () => settings.rttMs,
    minTimeoutMs: TEST_TIMEOUT_MS,
  });
  const parsed = (t: Terminal) => new Promise<void>((resolve) => t.write('', resolve));
  return {
    settings,
    echo,
    /** Writes host output the way ProcessTerminal's sink does, and resolves once both have parsed it. */
    async host(data: string): Promise<void> {
      echo.hostWriting();
      const written = new Promise<void>((resolve) =>
        terminal.write(data, () => {
          echo.hostWritten();
          resolve();
        }),
      );
      reference.write(data);
      await written;
      await parsed(terminal);
      await parsed(reference);
    },
    /** Types `keys`, one onData each, and waits until xterm has drawn what was predicted. */
    async type(...keys: string[]): Promise<void> {
      for (const key of keys) echo.typed(key);
      await parsed(terminal);
    },
    /** The cursor's line as the user sees it now. */
    line(): string {
      const buffer = terminal.buffer.active;
      return buffer
        .getLine(buffer.baseY + buffer.cursorY)!
        .translateToString()
        .trimEnd();
    },
    /** Both screens: every cell's text and attributes, and the cursor. */
    screens(): [string, string] {
      return [snapshot(terminal), snapshot(reference)];
    },
    parsed: () => parsed(terminal),
  };
}

function snapshot(t: Terminal): string {
  const buffer = t.buffer.active;
  const rows: string[] = [`${buffer.type} cursor ${buffer.cursorX},${buffer.baseY + buffer.cursorY}`];
  for (let y = 0; y < buffer.length; y += 1) {
    const line = buffer.getLine(y)!;
    const cells: string[] = [];
    for (let x = 0; x < t.cols; x += 1) {
      const cell = line.getCell(x)!;
      cells.push(
        `${cell.getChars() || '·'}${cell.getFgColor()}/${cell.getBgColor()}/${cell.isAttributeDefault()}`,
      );
    }
    rows.push(cells.join(' '));
  }
  return rows.join('\n');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A rig at a prompt where the host has echoed one key already, so predictions are drawn. */
async function trustedRig(options: Parameters<typeof rig>[0] = {}) {
  const r = rig(options);
  await r.host(PROMPT);
  await r.type('l');
  await r.host('l');
  return r;
}

describe('PredictiveEcho', () => {
  it('draws keys at once once the host echoes at this prompt, and the echo confirms them', async () => {
    const r = rig();
    await r.host(PROMPT);
    // The first key after a prompt is only checked: it could be a password's.
    await r.type('l');
    expect(r.line()).toBe('$');
    await r.host('l');
    await r.type('s', ' ', '-');
    expect(r.line()).toBe('$ ls -');
    expect(r.echo.drawing).toBe(true);
    await r.host('s');
    expect(r.line()).toBe('$ ls -');
    await r.host(' -');
    expect(r.echo.drawing).toBe(false);
    const [shown, host] = r.screens();
    expect(shown).toBe(host);
  });

  it('lets the host win when its output disagrees, and predicts nothing until it echoes again', async () => {
    const r = await trustedRig();
    await r.type('x', 'y');
    expect(r.line()).toBe('$ lxy');
    // A shell that maps the key to something else (or output that just arrived).
    await r.host('Q');
    expect(r.line()).toBe('$ lQ');
    const [shown, host] = r.screens();
    expect(shown).toBe(host);
    await r.host('xy');
    await r.type('z');
    expect(r.line()).toBe('$ lQxy');
    await r.host('z');
    await r.type('w');
    expect(r.line()).toBe('$ lQxyzw');
  });

  it('erases a predicted key on backspace at once, and ends as the host drew it', async () => {
    const r = await trustedRig();
    await r.type('a', 'b', '\x7f');
    expect(r.line()).toBe('$ la');
    await r.host('ab');
    await r.host('\b \b');
    expect(r.line()).toBe('$ la');
    const [shown, host] = r.screens();
    expect(shown).toBe(host);
  });

  it('takes a key back that the host never echoes (a password), and draws no more on that line', async () => {
    const r = await trustedRig({ rttMs: 5 });
    await r.type('s');
    expect(r.line()).toBe('$ ls');
    await sleep(TEST_TIMEOUT_MS * 2);
    await r.parsed();
    expect(r.line()).toBe('$ l');
    await r.type('e');
    expect(r.line()).toBe('$ l');
    const [shown, host] = r.screens();
    expect(shown).toBe(host);
  });

  it('keeps a burst drawn while its echoes come one after another, however long they all take', async () => {
    const r = await trustedRig({ rttMs: 5 });
    await r.type('a', 'b', 'c');
    for (const key of ['a', 'b']) {
      await sleep(TEST_TIMEOUT_MS * 0.6);
      await r.host(key);
    }
    await sleep(TEST_TIMEOUT_MS * 0.6);
    // Well past the timeout since 'c' was typed, but the host answered within it each time.
    expect(r.line()).toBe('$ labc');
    await r.host('c');
    const [shown, host] = r.screens();
    expect(shown).toBe(host);
  });

  it('never draws what is typed at a prompt that follows Enter until the host echoes there', async () => {
    const r = await trustedRig();
    await r.type('s');
    await r.type('\r');
    // Typed before the host answered Enter: the next prompt's place is not known yet.
    await r.type('x');
    expect(r.line()).toBe('$ ls');
    await r.host('s\r\nPassword: ');
    await r.type('h', 'u', 'n', 't');
    expect(r.line()).toBe('Password:');
    await sleep(TEST_TIMEOUT_MS * 2);
    await r.type('e', 'r');
    expect(r.line()).toBe('Password:');
    await r.host('\r\n$ ');
    await r.type('p');
    await r.host('p');
    await r.type('w', 'd');
    expect(r.line()).toBe('$ pwd');
    await r.host('wd');
    const [shown, host] = r.screens();
    expect(shown).toBe(host);
  });

  it('predicts nothing in the alternate screen, with mouse reporting on, or over a coloured background', async () => {
    for (const mode of ['\x1b[?1049h', '\x1b[?1000h', '\x1b[44m']) {
      const r = await trustedRig();
      await r.host(mode);
      await r.type('q');
      await r.host('q');
      await r.type('w');
      expect(r.echo.drawing).toBe(false);
      await r.host('w');
      const [shown, host] = r.screens();
      expect(shown).toBe(host);
    }
  });

  it('in auto mode predicts only on a link slower than 30 ms, and never when switched off', async () => {
    const r = await trustedRig({ mode: 'auto', rttMs: 12 });
    await r.type('a');
    expect(r.echo.drawing).toBe(false);
    await r.host('a');
    r.settings.rttMs = 80;
    await r.type('b');
    await r.host('b');
    await r.type('c');
    expect(r.line()).toBe('$ labc');
    r.settings.mode = 'never';
    r.echo.modeChanged();
    await r.parsed();
    expect(r.line()).toBe('$ lab');
    await r.host('c');
    const [shown, host] = r.screens();
    expect(shown).toBe(host);
  });

  it('stops before the last column and keeps host text right of the cursor untouched', async () => {
    const r = await trustedRig();
    await r.type(...'abcdefghijklmnopqrstuvwxyz!'.split(''));
    // 30 columns: "$ l" and 26 predictions reach column 28; the last column stays free.
    expect(r.line()).toBe('$ labcdefghijklmnopqrstuvwxyz');
    await r.host('abcdefghijklmnopqrstuvwxyz!');
    await r.host('\r\n$  right\x1b[6D');
    await r.type('x');
    await r.host('x');
    await r.type('y');
    expect(r.echo.drawing).toBe(false);
    await r.host('y');
    const [shown, host] = r.screens();
    expect(shown).toBe(host);
  });

  it('keeps drawing keys typed while host output is still being parsed, after it', async () => {
    const r = await trustedRig();
    // Nothing is pending while the host's output is parsed: the key takes the cursor's place after it.
    const output = r.host('\x1b[0m');
    r.echo.typed('a');
    await output;
    expect(r.line()).toBe('$ la');
    const slow = r.host('a');
    // Typed while the echo of 'a' waits in xterm's queue: drawn once it is parsed.
    r.echo.typed('b');
    await slow;
    expect(r.line()).toBe('$ lab');
    await r.host('b');
    const [shown, host] = r.screens();
    expect(shown).toBe(host);
  });
});

describe('backgroundDefaultAfter', () => {
  it('follows SGR: resets and 49 make the background default, colours of any form do not', () => {
    expect(backgroundDefaultAfter([0], false)).toBe(true);
    expect(backgroundDefaultAfter([1, 32], true)).toBe(true);
    expect(backgroundDefaultAfter([44], true)).toBe(false);
    expect(backgroundDefaultAfter([104], true)).toBe(false);
    expect(backgroundDefaultAfter([44, 49], true)).toBe(true);
    expect(backgroundDefaultAfter([48, 5, 0], true)).toBe(false);
    expect(backgroundDefaultAfter([48, 2, 0, 0, 0, 1], true)).toBe(false);
    // A foreground colour's parameters are not codes: 38;5;49 leaves the background as it was.
    expect(backgroundDefaultAfter([38, 5, 49], false)).toBe(false);
    expect(backgroundDefaultAfter([38, 2, 0, 0, 44], true)).toBe(true);
    expect(backgroundDefaultAfter([[48, 5, 1]], true)).toBe(false);
  });
});
