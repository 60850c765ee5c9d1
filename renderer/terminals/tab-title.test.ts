import { describe, expect, it } from 'vitest';
import { MAX_TAB_TITLE_CHARS } from '../../shared/ipc';
import { sanitizeTitle, tabTitle } from './tab-title';

describe('sanitizeTitle', () => {
  it('keeps one printable line: no controls, no direction overrides, spaces collapsed', () => {
    expect(sanitizeTitle('  vim\tnotes.txt\r\n')).toBe('vim notes.txt');
    expect(sanitizeTitle('a\u001b[31mred\u0007')).toBe('a [31mred');
    expect(sanitizeTitle('evil\u202etxt.exe')).toBe('evil txt.exe');
    expect(sanitizeTitle('\u0085\u009b')).toBe('');
  });

  it('cuts long titles to the bound, with an ellipsis, never splitting a character', () => {
    const long = '😀'.repeat(MAX_TAB_TITLE_CHARS + 10);
    const cut = sanitizeTitle(long);
    expect(Array.from(cut)).toHaveLength(MAX_TAB_TITLE_CHARS);
    expect(cut.endsWith('😀…')).toBe(true);
    expect(sanitizeTitle('x'.repeat(MAX_TAB_TITLE_CHARS))).toBe('x'.repeat(MAX_TAB_TITLE_CHARS));
  });
});

describe('tabTitle', () => {
  it("puts the user's name first, then the program's title, then the command", () => {
    expect(tabTitle({ name: 'logs', programTitle: 'vim', commandTitle: 'bash' })).toBe('logs');
    expect(tabTitle({ programTitle: 'vim', commandTitle: 'bash' })).toBe('vim');
    expect(tabTitle({ commandTitle: 'bash' })).toBe('bash');
    expect(tabTitle({})).toBe('terminal');
  });
});
