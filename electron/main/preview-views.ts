// The desktop app's preview views: a forwarded port's page shown over its preview pane, each in a
// WebContentsView of its own. A view is a stranger's page as far as the app is concerned: it gets an
// in-memory session per environment (no cookies or storage shared with the app or with another
// environment, nothing kept after a quit), no preload, sandbox, context isolation and no Node; every
// permission, download and webview is refused, and its main frame stays on the forward's loopback
// origin (anything else goes back to the renderer, which opens it as it opens any link).
import { WebContentsView, session, type BrowserWindow, type Session, type WebContents } from 'electron';
import type { PreviewBounds, PreviewState } from '../../shared/ipc';
import { inPreviewOrigin, previewHome } from '../../shared/preview-origin';
import type { PreviewEvent, PreviewHost } from '../app/host-services';

/** Without Electron's `persist:` prefix the partition lives in memory only. */
const PARTITION_PREFIX = 'tether-preview-';
/** Chromium's net::ERR_ABORTED: a load we stopped ourselves (a refused redirect, a new load). */
const ERR_ABORTED = -3;

interface Preview {
  readonly view: WebContentsView;
  readonly envId: string;
  readonly port: number;
  error: string | null;
}

const previewSessions = new WeakSet<Session>();

/** The contents belong to a preview view (they get its rules, not the app page's). */
export function isPreviewContents(contents: WebContents): boolean {
  return previewSessions.has(contents.session);
}

function previewSession(envId: string): Session {
  const s = session.fromPartition(PARTITION_PREFIX + encodeURIComponent(envId));
  if (!previewSessions.has(s)) {
    previewSessions.add(s);
    s.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
    s.setPermissionCheckHandler(() => false);
    s.setDevicePermissionHandler(() => false);
    s.on('will-download', (event) => event.preventDefault());
  }
  return s;
}

export class PreviewViews implements PreviewHost {
  private window: BrowserWindow | null = null;
  private emit: (event: PreviewEvent) => void = () => undefined;
  private readonly views = new Map<string, Preview>();

  listen(emit: (event: PreviewEvent) => void): void {
    this.emit = emit;
  }

  /** The window the views go in. Its page loading again (a reload) or closing closes them all. */
  attach(window: BrowserWindow): void {
    this.window = window;
    window.webContents.on('did-start-navigation', (details) => {
      if (details.isMainFrame && !details.isSameDocument) this.retain(new Set());
    });
    window.on('closed', () => {
      // The window is gone: only the views' contents are left to close.
      this.window = null;
      this.retain(new Set());
    });
  }

  open(id: string, envId: string, port: number): PreviewState {
    const existing = this.views.get(id);
    if (existing?.port === port) return this.state(id, existing);
    if (existing) this.close(id, existing);
    if (!this.window) throw new Error('The Tether window is not open.');
    const view = new WebContentsView({
      webPreferences: {
        session: previewSession(envId),
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
        nodeIntegrationInSubFrames: false,
        nodeIntegrationInWorker: false,
        webSecurity: true,
        webviewTag: false,
        navigateOnDragDrop: false,
        safeDialogs: true,
        spellcheck: false,
      },
    });
    view.setVisible(false);
    this.window.contentView.addChildView(view);
    const preview: Preview = { view, envId, port, error: null };
    this.views.set(id, preview);
    this.watch(id, preview);
    // A failed load is reported through did-fail-load, into the pane.
    view.webContents.loadURL(previewHome(port)).catch(() => undefined);
    return this.state(id, preview);
  }

  place(id: string, bounds: PreviewBounds | null): void {
    const preview = this.views.get(id);
    if (!preview) return;
    if (!bounds || !this.window) {
      preview.view.setVisible(false);
      return;
    }
    // The renderer measures in CSS pixels of the app's page; the view is placed in window pixels.
    const zoom = this.window.webContents.getZoomFactor();
    preview.view.setBounds({
      x: Math.round(bounds.x * zoom),
      y: Math.round(bounds.y * zoom),
      width: Math.round(bounds.width * zoom),
      height: Math.round(bounds.height * zoom),
    });
    preview.view.setVisible(true);
  }

  navigate(id: string, action: 'back' | 'forward' | 'reload' | 'home'): void {
    const preview = this.views.get(id);
    if (!preview) return;
    const contents = preview.view.webContents;
    const history = contents.navigationHistory;
    if (action === 'back' && history.canGoBack()) history.goBack();
    else if (action === 'forward' && history.canGoForward()) history.goForward();
    else if (action === 'reload') contents.reload();
    else if (action === 'home') contents.loadURL(previewHome(preview.port)).catch(() => undefined);
  }

  retain(ids: ReadonlySet<string>): void {
    for (const [id, preview] of this.views) if (!ids.has(id)) this.close(id, preview);
  }

  private close(id: string, preview: Preview): void {
    this.views.delete(id);
    if (this.window && !this.window.isDestroyed()) this.window.contentView.removeChildView(preview.view);
    if (!preview.view.webContents.isDestroyed()) preview.view.webContents.close();
  }

  private watch(id: string, preview: Preview): void {
    const contents = preview.view.webContents;
    const outside = (url: string): boolean => !inPreviewOrigin(url, preview.port);
    const elsewhere = (url: string): void =>
      this.emit({ name: 'preview.openLink', payload: { id, envId: preview.envId, url } });
    contents.on('will-navigate', (event) => {
      if (!outside(event.url)) return;
      event.preventDefault();
      elsewhere(event.url);
    });
    contents.on('will-redirect', (event) => {
      if (!event.isMainFrame || !outside(event.url)) return;
      event.preventDefault();
      elsewhere(event.url);
    });
    // No second window ever: the forward's own pages load in this view, others go to the renderer.
    contents.setWindowOpenHandler(({ url }) => {
      if (outside(url)) elsewhere(url);
      else contents.loadURL(url).catch(() => undefined);
      return { action: 'deny' };
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());

    const changed = (): void => {
      if (this.views.get(id) === preview && !contents.isDestroyed())
        this.emit({ name: 'preview.changed', payload: this.state(id, preview) });
    };
    contents.on('did-start-loading', () => {
      preview.error = null;
      changed();
    });
    contents.on('did-fail-load', (_event, code, description, _url, isMainFrame) => {
      if (isMainFrame && code !== ERR_ABORTED) preview.error = description;
    });
    contents.on('did-stop-loading', changed);
    contents.on('did-navigate', changed);
    contents.on('did-navigate-in-page', changed);
    contents.on('page-title-updated', changed);
  }

  private state(id: string, preview: Preview): PreviewState {
    const contents = preview.view.webContents;
    return {
      id,
      url: contents.getURL() || previewHome(preview.port),
      title: contents.getTitle(),
      loading: contents.isLoading(),
      canGoBack: contents.navigationHistory.canGoBack(),
      canGoForward: contents.navigationHistory.canGoForward(),
      error: preview.error,
    };
  }
}
