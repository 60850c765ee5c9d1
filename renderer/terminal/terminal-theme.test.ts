import { describe, expect, it } from 'vitest';
import type { ITheme } from '@xterm/xterm';
import { DARK_THEME, LIGHT_THEME, TERMINAL_FONT_FAMILY } from './terminal-theme';

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const ANSI = [
  'black',
  'red',
  'green',
  'yellow',
  'blue',
  'magenta',
  'cyan',
  'white',
  'brightBlack',
  'brightRed',
  'brightGreen',
  'brightYellow',
  'brightBlue',
  'brightMagenta',
  'brightCyan',
  'brightWhite',
] as const satisfies readonly (keyof ITheme)[];

/** WCAG AA for text; the one colour a theme paints its own background with may be large-text AA. */
const TEXT_CONTRAST = 4.5;
const BACKGROUND_COLOUR_CONTRAST = 3;

describe.each([
  ['dark', DARK_THEME, 'black'],
  ['light', LIGHT_THEME, null],
] as const)('the %s terminal theme', (_name, theme, backgroundColour) => {
  it('defines all sixteen ANSI colours', () => {
    for (const colour of ANSI) expect(theme[colour], colour).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it.each(ANSI)('draws %s readable on its background', (colour) => {
    const ratio = contrast(theme[colour] as string, theme.background as string);
    const needed = colour === backgroundColour ? BACKGROUND_COLOUR_CONTRAST : TEXT_CONTRAST;
    expect(
      ratio,
      `${colour} ${theme[colour]} on ${theme.background}: ${ratio.toFixed(2)}`,
    ).toBeGreaterThanOrEqual(needed);
  });

  it('draws its foreground at AAA contrast', () => {
    expect(contrast(theme.foreground as string, theme.background as string)).toBeGreaterThanOrEqual(7);
  });
});

describe('the terminal font stack', () => {
  it('falls back to faces with CJK and emoji glyphs before the generic monospace', () => {
    const faces = TERMINAL_FONT_FAMILY.split(',').map((f) => f.trim().replace(/"/g, ''));
    expect(faces.at(-1)).toBe('monospace');
    expect(faces.some((f) => /CJK|Han|WenQuanYi|YaHei|Hiragino/.test(f))).toBe(true);
    expect(faces.some((f) => /Emoji/.test(f))).toBe(true);
  });
});
