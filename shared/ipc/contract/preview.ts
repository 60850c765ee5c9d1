// The preview namespace: a forwarded port's page shown inside the desktop app, in a view of its own
// (electron/main/preview-views.ts) that the renderer places over a preview pane. Only the Electron
// host has such views; in web mode every command but preview.retain answers `unsupported` (the page
// opens in a browser tab instead). The commands of electron/app/handlers/preview-handlers.ts.
import { z } from 'zod';
import { command, type CommandsOfNamespace, EnvironmentId, type EventsOfNamespace, Ok } from './common';

/** One preview view: the renderer names it after the pane content it belongs to. */
export const PreviewId = z.string().min(1).max(300);

/** Where the view sits in the window, in CSS pixels of the app's page. */
export const PreviewBounds = z.object({
  x: z.number().int().min(0).max(100_000),
  y: z.number().int().min(0).max(100_000),
  width: z.number().int().min(1).max(100_000),
  height: z.number().int().min(1).max(100_000),
});
export type PreviewBounds = z.infer<typeof PreviewBounds>;

export const PreviewState = z.object({
  id: PreviewId,
  /** The page shown now (after redirects and in-page navigation). */
  url: z.string(),
  title: z.string(),
  loading: z.boolean(),
  canGoBack: z.boolean(),
  canGoForward: z.boolean(),
  /** Why the last load failed (e.g. "ERR_CONNECTION_REFUSED"), or null. */
  error: z.string().nullable(),
});
export type PreviewState = z.infer<typeof PreviewState>;

export const previewCommands = {
  /**
   * Makes sure view `id` shows local port `port` (environment `envId` picks its session): a new view
   * loads the port's home page; one already on that port is left where it is.
   */
  'preview.open': command(
    z.object({ id: PreviewId, envId: EnvironmentId, port: z.number().int().min(1).max(65535) }),
    PreviewState,
  ),
  /** Puts the view at `bounds`, or hides it (null: its pane is not on screen, or a dialog is open). */
  'preview.place': command(z.object({ id: PreviewId, bounds: PreviewBounds.nullable() }), Ok),
  'preview.navigate': command(
    z.object({ id: PreviewId, action: z.enum(['back', 'forward', 'reload', 'home']) }),
    Ok,
  ),
  /** Closes every view but these (the panes that still show one). */
  'preview.retain': command(z.object({ ids: z.array(PreviewId).max(1000) }), Ok),
} as const satisfies CommandsOfNamespace<'preview'>;

export const previewEvents = {
  'preview.changed': PreviewState,
  /**
   * The page asked to go somewhere outside the forward's origin (a link, a new window, a redirect):
   * the view stayed where it was, and the renderer opens `url` as it opens any link.
   */
  'preview.openLink': z.object({ id: PreviewId, envId: EnvironmentId, url: z.string() }),
} as const satisfies EventsOfNamespace<'preview'>;
