// The terminal part of the app's Settings: how panes draw (font, spacing, cursor, colour scheme),
// what the bell and a right click do, whether typing is predicted. Declared once here with their defaults, so the config file,
// the AppService and the renderer agree, and a config file written before a field existed loads.
import { z } from 'zod';

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
export const HexColour = z.string().regex(HEX_COLOUR, 'a colour is #rrggbb');

/** The built-in colour schemes (their colours live in renderer/terminals/xterm/terminal-schemes.ts). */
export const BUILT_IN_SCHEME_IDS = [
  'tether-dark',
  'tether-light',
  'solarized-dark',
  'solarized-light',
  'one-dark',
  'high-contrast-dark',
  'high-contrast-light',
] as const;
export const SchemeId = z.enum([...BUILT_IN_SCHEME_IDS, 'custom']);
export type SchemeId = z.infer<typeof SchemeId>;

/** The sixteen ANSI colours in xterm's order and names. */
export const ANSI_COLOUR_NAMES = [
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
] as const;
export type AnsiColourName = (typeof ANSI_COLOUR_NAMES)[number];

/** Every colour of a scheme, all #rrggbb (a custom scheme is stored like this). */
export const SchemeColours = z.object({
  background: HexColour,
  foreground: HexColour,
  cursor: HexColour,
  selectionBackground: HexColour,
  ...(Object.fromEntries(ANSI_COLOUR_NAMES.map((name) => [name, HexColour])) as Record<
    AnsiColourName,
    typeof HexColour
  >),
});
export type SchemeColours = z.infer<typeof SchemeColours>;

/** Font faces the user names, tried before the built-in fallback stack: letters, digits, spaces, `-_.,`. */
export const FontFamilySetting = z
  .string()
  .max(200)
  .regex(/^[\p{L}\p{N} ._,-]*$/u, 'a font name has letters, digits, spaces, dots, dashes or commas');

export const TERMINAL_SETTINGS_SHAPE = {
  /** Faces tried first (comma-separated); empty: the built-in stack only. */
  fontFamily: FontFamilySetting,
  /** Row height as a multiple of the font's own. */
  lineHeight: z.number().min(1).max(2),
  /** Extra pixels between characters. */
  letterSpacing: z.number().int().min(-2).max(10),
  cursorStyle: z.enum(['block', 'bar', 'underline']),
  cursorBlink: z.boolean(),
  /** The scheme every pane uses, or 'follow-theme': `lightScheme`/`darkScheme` by the app's theme. */
  scheme: z.union([z.literal('follow-theme'), SchemeId]),
  lightScheme: SchemeId,
  darkScheme: SchemeId,
  /** The colours of the 'custom' scheme; null until someone edits it (it then starts from a copy). */
  customScheme: SchemeColours.nullable(),
  /** What BEL (`\a`) does: nothing, flash the pane, a short tone, or an OS notification when unfocused. */
  bell: z.enum(['off', 'visual', 'sound', 'notify']),
  /** What a right click in a terminal does (Shift+right click and the menu key always open the menu). */
  rightClick: z.enum(['menu', 'paste', 'select-word']),
  /** Whether new bash, zsh and fish shells mark their commands and report their folder (shell integration). */
  shellIntegration: z.boolean(),
  /**
   * Predictive local echo: keys typed at a shell prompt drawn before the host echoes them. 'auto'
   * on links slower than about 30 ms, 'always' on every link, 'never' off.
   */
  predictiveEcho: z.enum(['auto', 'always', 'never']),
} as const;

export const TerminalSettings = z.object(TERMINAL_SETTINGS_SHAPE);
export type TerminalSettings = z.infer<typeof TerminalSettings>;

export const DEFAULT_TERMINAL_SETTINGS: TerminalSettings = {
  fontFamily: '',
  lineHeight: 1,
  letterSpacing: 0,
  cursorStyle: 'block',
  cursorBlink: true,
  scheme: 'follow-theme',
  lightScheme: 'tether-light',
  darkScheme: 'tether-dark',
  customScheme: null,
  bell: 'visual',
  rightClick: 'menu',
  shellIntegration: true,
  predictiveEcho: 'auto',
};

/** The terminal fields with their defaults, for reading a config file written before they existed. */
export const TERMINAL_SETTINGS_WITH_DEFAULTS = Object.fromEntries(
  Object.entries(TERMINAL_SETTINGS_SHAPE).map(([key, schema]) => [
    key,
    (schema as z.ZodType).default(DEFAULT_TERMINAL_SETTINGS[key as keyof TerminalSettings]),
  ]),
) as { [K in keyof TerminalSettings]: z.ZodDefault<(typeof TERMINAL_SETTINGS_SHAPE)[K]> };
