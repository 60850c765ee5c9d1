// xterm colour themes matching the app's light and dark palettes, which one applies now, and the
// pane's font stack.
import type { ITheme } from '@xterm/xterm';
import type { Settings } from '../../shared/ipc';

/** The pane's font stack (the size is a setting). */
export const TERMINAL_FONT_FAMILY = 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace';

export const DARK_THEME: ITheme = {
  background: '#16181d',
  foreground: '#d8dde6',
  cursor: '#7cc4ff',
  selectionBackground: '#35507a',
};

export const LIGHT_THEME: ITheme = {
  background: '#fbfbfc',
  foreground: '#1f2329',
  cursor: '#1a6fd1',
  selectionBackground: '#b9d4f5',
};

export function resolvedTheme(setting: Settings['theme']): 'light' | 'dark' {
  if (setting !== 'system') return setting;
  const media =
    typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  return media?.matches ? 'dark' : 'light';
}
