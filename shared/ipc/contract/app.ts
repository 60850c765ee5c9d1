// The settings, app and shell namespaces: settings, notices, token storage, unsaved edits and
// external links, the commands of electron/app/handlers/app-handlers.ts.
import { z } from 'zod';
import { DEFAULT_TERMINAL_SETTINGS, TERMINAL_SETTINGS_SHAPE } from '../terminal-settings';
import { command, type CommandsOfNamespace, Empty, type EventsOfNamespace, Ok } from './common';

export const Settings = z.object({
  scrollback: z.number().int().min(100).max(1_000_000),
  copyOnSelect: z.boolean(),
  fontSize: z.number().int().min(8).max(32),
  theme: z.enum(['system', 'light', 'dark']),
  /** Hosts (`URL.host`) whose links in terminal output open without asking: "always allow this host". */
  trustedLinkHosts: z.array(z.string().min(1).max(300)).max(1_000),
  ...TERMINAL_SETTINGS_SHAPE,
});
export type Settings = z.infer<typeof Settings>;

/** The settings of a new install, and of every setting a saved file does not have yet. */
export const DEFAULT_SETTINGS: Settings = {
  scrollback: 10_000,
  copyOnSelect: false,
  fontSize: 13,
  theme: 'system',
  trustedLinkHosts: [],
  ...DEFAULT_TERMINAL_SETTINGS,
};

/** Something the user should know that is not tied to one command (e.g. a config file moved aside). */
export const AppNotice = z.object({
  id: z.string(),
  level: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  at: z.number(),
});
export type AppNotice = z.infer<typeof AppNotice>;

/** How the host keeps environment tokens at rest, so the token field can say it truthfully. */
export const TokenStorageView = z.object({
  encrypted: z.boolean(),
  /** e.g. "encrypted with the OS keychain (gnome_libsecret)" or why they are not encrypted. */
  description: z.string(),
});
export type TokenStorageView = z.infer<typeof TokenStorageView>;

/** The most unsaved files one renderer reports (far more editor tabs than anyone keeps open). */
export const UNSAVED_EDITS_MAX = 1000;

export const appCommands = {
  'settings.get': command(Empty, Settings),
  'settings.update': command(Settings.partial(), Settings),

  /** Notices not yet dismissed (oldest first). */
  'app.notices': command(Empty, z.array(AppNotice)),
  'app.dismissNotice': command(z.object({ id: z.string() }), Ok),
  /**
   * True for the first renderer to ask since the app host started (false for every later one, and
   * for a reload): that renderer makes sure the Local environment has a shell (start-app.ts).
   */
  'app.claimStartup': command(Empty, z.object({ first: z.boolean() })),
  /** Whether stored tokens are really encrypted (not on Linux without a keyring, nor in web mode). */
  'app.tokenStorage': command(Empty, TokenStorageView),
  /**
   * The names of the files with unsaved changes in this renderer's editors (each report replaces the
   * last; an empty list clears it), so the desktop app's quit warning can name them.
   */
  'app.reportUnsavedEdits': command(
    z.object({ files: z.array(z.string().min(1).max(1000)).max(UNSAVED_EDITS_MAX) }),
    Ok,
  ),

  /**
   * Opens an http(s) URL in the system browser, without a shell; anything else is refused. A web-mode
   * page opens links in a new tab itself instead.
   */
  'shell.openExternal': command(z.object({ url: z.string().url() }), Ok),
} as const satisfies CommandsOfNamespace<'settings' | 'app' | 'shell'>;

export const appEvents = {
  'settings.changed': Settings,
  /** A new notice (also listed by app.notices until dismissed). */
  'app.notice': AppNotice,
  /** The desktop app's native menu chose a command of the renderer's command registry, by id. */
  'app.menuCommand': z.object({ id: z.string().min(1).max(100) }),
} as const satisfies EventsOfNamespace<'settings' | 'app' | 'shell'>;
