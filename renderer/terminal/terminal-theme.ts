// xterm colour themes matching the app's light and dark palettes (all sixteen ANSI colours, each
// checked for contrast against its background by a unit test), which one applies now, and the
// pane's font stack with fallbacks for CJK and emoji.
import type { ITheme } from '@xterm/xterm';
import type { Settings } from '../../shared/ipc';

/**
 * The pane's font stack (the size is a setting). Monospace faces first; then faces that carry CJK
 * and emoji, so such text falls back to a real glyph instead of an empty box where the first
 * faces lack it.
 */
export const TERMINAL_FONT_FAMILY = [
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

export const DARK_THEME: ITheme = {
  background: '#16181d',
  foreground: '#d8dde6',
  cursor: '#7cc4ff',
  cursorAccent: '#16181d',
  selectionBackground: '#35507a',
  // Black is what dark themes paint backgrounds with; as text it still reads (3:1).
  black: '#6e7681',
  red: '#f47067',
  green: '#6bc46d',
  yellow: '#e5c07b',
  blue: '#6cb6ff',
  magenta: '#dcbdfb',
  cyan: '#56d4dd',
  white: '#c9d1d9',
  brightBlack: '#8b929e',
  brightRed: '#ff938a',
  brightGreen: '#8ddb8c',
  brightYellow: '#f0d399',
  brightBlue: '#96d0ff',
  brightMagenta: '#eedcff',
  brightCyan: '#96e8ef',
  brightWhite: '#f0f3f6',
};

export const LIGHT_THEME: ITheme = {
  background: '#fbfbfc',
  foreground: '#1f2329',
  cursor: '#1a6fd1',
  cursorAccent: '#fbfbfc',
  selectionBackground: '#b9d4f5',
  black: '#24292f',
  red: '#b3261e',
  green: '#116329',
  yellow: '#7d4e00',
  blue: '#0550ae',
  magenta: '#8250df',
  cyan: '#0b6670',
  // "White" text (and bold white, drawn bright) must stay readable on a light background.
  white: '#656d76',
  brightBlack: '#57606a',
  brightRed: '#a40e26',
  brightGreen: '#1a7f37',
  brightYellow: '#633c01',
  brightBlue: '#0969da',
  brightMagenta: '#6f42c1',
  brightCyan: '#1b7c83',
  brightWhite: '#424a53',
};

export function resolvedTheme(setting: Settings['theme']): 'light' | 'dark' {
  if (setting !== 'system') return setting;
  const media =
    typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  return media?.matches ? 'dark' : 'light';
}
