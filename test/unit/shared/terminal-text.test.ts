// The one escape of remote text before it reaches a terminal: every C0 and C1 control and DEL is
// shown, not obeyed, so escape sequences cannot move the cursor, clear lines or hide text.
import { describe, expect, it } from 'vitest';
import { escapeForTerminal } from '../../../shared/terminal-text';

/** Any control character left in a string (C0, DEL, C1). */
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

describe('escapeForTerminal', () => {
  it('leaves ordinary text, unicode and backslashes as they are', () => {
    for (const text of ['plain.txt', 'naïve 日本語 €', 'a\\b', 'tab-less', '', '\u00a0nbsp']) {
      expect(escapeForTerminal(text)).toBe(text);
    }
  });

  it('shows ESC and with it every escape sequence as text', () => {
    expect(escapeForTerminal('\u001b[2J\u001b[1Aevil')).toBe('\\x1b[2J\\x1b[1Aevil');
    expect(escapeForTerminal('\u001b]0;title\u0007')).toBe('\\x1b]0;title\\x07');
  });

  it('escapes every C0 control, DEL and every C1 control', () => {
    for (let code = 0; code <= 0x9f; code++) {
      if (code > 0x1f && code < 0x7f) continue;
      const char = String.fromCharCode(code);
      const escaped = escapeForTerminal(`a${char}b`);
      expect(escaped, `U+${code.toString(16)}`).not.toMatch(ANY_CONTROL);
      expect(escaped.length).toBeGreaterThan(3);
    }
    expect(escapeForTerminal('\u009b31m')).toBe('\\x9b31m');
    expect(escapeForTerminal('\u007f\u0000')).toBe('\\x7f\\x00');
  });

  it('names the usual ones, and keeps line breaks only when asked', () => {
    expect(escapeForTerminal('a\nb\rc\td')).toBe('a\\nb\\rc\\td');
    expect(escapeForTerminal('line 1\nline 2\r', { lineBreaks: true })).toBe('line 1\nline 2\\r');
    expect(escapeForTerminal('\u001b[K\n', { lineBreaks: true })).toBe('\\x1b[K\n');
  });

  it('shows the bidirectional controls, so a name cannot be drawn reordered', () => {
    expect(escapeForTerminal('evil\u202etxt.exe')).toBe('evil\\u202etxt.exe');
    for (const code of [0x61c, 0x200e, 0x200f, 0x202a, 0x202d, 0x2066, 0x2069]) {
      expect(escapeForTerminal(String.fromCharCode(code))).toBe(`\\u${code.toString(16).padStart(4, '0')}`);
    }
  });

  it('reads the same escaped twice', () => {
    const once = escapeForTerminal('\u001b[31mred\u0000\n');
    expect(escapeForTerminal(once)).toBe(once);
  });
});
