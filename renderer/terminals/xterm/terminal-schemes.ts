// The terminal colour schemes: every built-in one (all sixteen ANSI colours, each checked for
// contrast against its background by a unit test), the custom one, and which scheme a pane uses
// now (a fixed choice, or the light or dark choice following the app's theme).
import type { SchemeColours, SchemeId, Settings } from '../../../shared/ipc';

export interface TerminalScheme {
  id: SchemeId;
  label: string;
  /** Whether the scheme draws on a light or a dark background (which "follow the theme" list it is in). */
  tone: 'light' | 'dark';
  colours: SchemeColours;
}

type BuiltInId = Exclude<SchemeId, 'custom'>;

// Colours were tuned where the original palettes fall short of 4.5:1 (Solarized's red, blue and
// magenta on its dark base, most accents on its light base): same hue, moved just far enough.
// In dark schemes "black" may sit at 3:1: it is what programs paint backgrounds with.
const BUILT_IN: Record<BuiltInId, Omit<TerminalScheme, 'id'>> = {
  'tether-dark': {
    label: 'Tether dark',
    tone: 'dark',
    colours: {
      background: '#16181d',
      foreground: '#d8dde6',
      cursor: '#7cc4ff',
      selectionBackground: '#35507a',
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
    },
  },
  'tether-light': {
    label: 'Tether light',
    tone: 'light',
    colours: {
      background: '#fbfbfc',
      foreground: '#1f2329',
      cursor: '#1a6fd1',
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
    },
  },
  'solarized-dark': {
    label: 'Solarized dark',
    tone: 'dark',
    colours: {
      background: '#002b36',
      foreground: '#93a1a1',
      cursor: '#93a1a1',
      selectionBackground: '#0a3b48',
      black: '#5f747b',
      red: '#e56765',
      green: '#859900',
      yellow: '#b58900',
      blue: '#3a95d6',
      magenta: '#de66a0',
      cyan: '#2aa198',
      white: '#eee8d5',
      brightBlack: '#839496',
      brightRed: '#d7744c',
      brightGreen: '#a3b745',
      brightYellow: '#d3a82b',
      brightBlue: '#5aa9e6',
      brightMagenta: '#8589ce',
      brightCyan: '#5cc2b8',
      brightWhite: '#fdf6e3',
    },
  },
  'solarized-light': {
    label: 'Solarized light',
    tone: 'light',
    colours: {
      background: '#fdf6e3',
      foreground: '#52676e',
      cursor: '#52676e',
      selectionBackground: '#eee8d5',
      black: '#073642',
      red: '#d3302d',
      green: '#687700',
      yellow: '#8b6900',
      blue: '#2073ae',
      magenta: '#c8337c',
      cyan: '#207c75',
      white: '#5e727a',
      brightBlack: '#586e75',
      brightRed: '#c14715',
      brightGreen: '#627700',
      brightYellow: '#8a6500',
      brightBlue: '#1a6aa6',
      brightMagenta: '#6368b4',
      brightCyan: '#1e7a73',
      brightWhite: '#002b36',
    },
  },
  'one-dark': {
    label: 'One Dark',
    tone: 'dark',
    colours: {
      background: '#282c34',
      foreground: '#abb2bf',
      cursor: '#528bff',
      selectionBackground: '#3e4451',
      black: '#707681',
      red: '#e2737c',
      green: '#98c379',
      yellow: '#e5c07b',
      blue: '#61afef',
      magenta: '#c678dd',
      cyan: '#56b6c2',
      white: '#abb2bf',
      brightBlack: '#90949d',
      brightRed: '#f08c94',
      brightGreen: '#b5d99c',
      brightYellow: '#f0d197',
      brightBlue: '#8cc4f5',
      brightMagenta: '#d9a0ea',
      brightCyan: '#7fcfd9',
      brightWhite: '#dcdfe4',
    },
  },
  'high-contrast-dark': {
    label: 'High contrast dark',
    tone: 'dark',
    colours: {
      background: '#000000',
      foreground: '#ffffff',
      cursor: '#ffff00',
      selectionBackground: '#264f78',
      black: '#969696',
      red: '#ff6b6b',
      green: '#4ee44e',
      yellow: '#ffff00',
      blue: '#6cb6ff',
      magenta: '#ff7bff',
      cyan: '#00ffff',
      white: '#e5e5e5',
      brightBlack: '#a6a6a6',
      brightRed: '#ff9494',
      brightGreen: '#8aff8a',
      brightYellow: '#ffff8a',
      brightBlue: '#9fd0ff',
      brightMagenta: '#ffa6ff',
      brightCyan: '#8affff',
      brightWhite: '#ffffff',
    },
  },
  'high-contrast-light': {
    label: 'High contrast light',
    tone: 'light',
    colours: {
      background: '#ffffff',
      foreground: '#000000',
      cursor: '#0000c0',
      selectionBackground: '#add6ff',
      black: '#000000',
      red: '#a00000',
      green: '#005f00',
      yellow: '#5c4300',
      blue: '#0000c0',
      magenta: '#8700af',
      cyan: '#005f6a',
      white: '#3a3a3a',
      brightBlack: '#3a3a3a',
      brightRed: '#b00000',
      brightGreen: '#005c00',
      brightYellow: '#6b4f00',
      brightBlue: '#0033cc',
      brightMagenta: '#8a00b8',
      brightCyan: '#005866',
      brightWhite: '#1c1c1c',
    },
  },
};

export const BUILT_IN_SCHEMES: readonly TerminalScheme[] = Object.entries(BUILT_IN).map(([id, scheme]) => ({
  id: id as BuiltInId,
  ...scheme,
}));

/** The app theme in effect: the setting, or the system's preference when it follows the system. */
export function resolvedTheme(setting: Settings['theme']): 'light' | 'dark' {
  if (setting !== 'system') return setting;
  const media =
    typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  return media?.matches ? 'dark' : 'light';
}

/** Which scheme a pane uses with these settings while the app's theme is `appTheme`. */
export function activeSchemeId(settings: Settings, appTheme: 'light' | 'dark'): SchemeId {
  if (settings.scheme !== 'follow-theme') return settings.scheme;
  return appTheme === 'dark' ? settings.darkScheme : settings.lightScheme;
}

/**
 * The colours of a scheme. The custom scheme, before anyone edited it, is a copy of the built-in
 * scheme matching the app's theme, so choosing it never shows an unreadable blank.
 */
export function schemeColours(id: SchemeId, settings: Settings, appTheme: 'light' | 'dark'): SchemeColours {
  if (id === 'custom') return settings.customScheme ?? startingCustomScheme(appTheme);
  return BUILT_IN[id].colours;
}

export function startingCustomScheme(appTheme: 'light' | 'dark'): SchemeColours {
  return { ...BUILT_IN[appTheme === 'dark' ? 'tether-dark' : 'tether-light'].colours };
}
