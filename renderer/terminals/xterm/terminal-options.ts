// Turns the app's Settings into xterm options: the font stack (the user's faces first, then faces
// with CJK, box drawing and emoji), spacing, cursor, scrollback and the colour scheme. One function,
// used when a terminal is created and when settings change, so both always agree.
import type { ITerminalOptions } from '@xterm/xterm';
import type { Settings } from '../../../shared/ipc';
import { activeSchemeId, resolvedTheme, schemeColours } from './terminal-schemes';

/**
 * The built-in font stack. Monospace faces first (DejaVu Sans Mono also carries box drawing); then
 * faces that carry CJK and emoji, so such text falls back to a real glyph instead of an empty box
 * where the first faces lack it.
 */
export const FALLBACK_FONT_FAMILY = [
  '"DejaVu Sans Mono"',
  'ui-monospace',
  '"Cascadia Mono"',
  'Menlo',
  'Consolas',
  '"Noto Sans Mono CJK SC"',
  '"Noto Sans CJK SC"',
  '"Source Han Mono"',
  '"WenQuanYi Zen Hei Mono"',
  '"Hiragino Sans"',
  '"Microsoft YaHei"',
  '"Noto Color Emoji"',
  '"Apple Color Emoji"',
  '"Segoe UI Emoji"',
  'monospace',
].join(', ');

/** The user's faces (comma-separated, validated by the contract), each quoted, before the fallbacks. */
export function fontFamilyStack(fontFamily: string): string {
  const faces = fontFamily
    .split(',')
    .map((face) => face.trim())
    .filter((face) => face !== '')
    .map((face) => `"${face}"`);
  return [...faces, FALLBACK_FONT_FAMILY].join(', ');
}

export type LiveTerminalOptions = Required<
  Pick<
    ITerminalOptions,
    | 'scrollback'
    | 'fontSize'
    | 'fontFamily'
    | 'lineHeight'
    | 'letterSpacing'
    | 'cursorStyle'
    | 'cursorBlink'
    | 'rightClickSelectsWord'
    | 'theme'
  >
>;

/** Everything a setting decides about a terminal; every field can change on a live terminal. */
export function terminalOptions(
  settings: Settings,
  appTheme = resolvedTheme(settings.theme),
): LiveTerminalOptions {
  const colours = schemeColours(activeSchemeId(settings, appTheme), settings, appTheme);
  return {
    scrollback: settings.scrollback,
    fontSize: settings.fontSize,
    fontFamily: fontFamilyStack(settings.fontFamily),
    lineHeight: settings.lineHeight,
    letterSpacing: settings.letterSpacing,
    cursorStyle: settings.cursorStyle,
    cursorBlink: settings.cursorBlink,
    rightClickSelectsWord: settings.rightClick === 'select-word',
    theme: { ...colours, cursorAccent: colours.background },
  };
}
