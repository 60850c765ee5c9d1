// The messages between the Electron host contract test and its child (host-driver.ts), over the
// fork IPC channel: one request per call, answered with a result or an error stack.

/** Who sends an IPC call: the app's own page, another webContents, or a frame of another origin. */
export type InvokeFrom = 'app-page' | 'other-contents' | 'foreign-frame' | 'lookalike-origin';

export type DriverRequest =
  | { op: 'snapshot' }
  | { op: 'fetch'; url: string }
  | { op: 'invoke'; channel: string; input: unknown; from: InvokeFrom }
  | { op: 'navigate'; url: string; later?: boolean }
  | { op: 'window-open'; url: string; later?: boolean }
  | { op: 'attach-webview' }
  | { op: 'headers-received'; url: string; responseHeaders: Record<string, string[]> }
  | { op: 'permission'; permission: string }
  | { op: 'load-preload' }
  | { op: 'preload-invoke'; name: string; input: unknown }
  | { op: 'preload-on'; name: string }
  | { op: 'preview-snapshot' }
  /** A page event on the contents of the `view`-th preview view made so far. */
  | { op: 'preview-navigate'; view: number; url: string; event: 'will-navigate' | 'will-redirect' }
  | { op: 'preview-window-open'; view: number; url: string }
  | { op: 'preview-permission'; view: number; permission: string }
  | { op: 'preview-download'; view: number }
  /** The app's page starts loading again (a reload). */
  | { op: 'page-reload' }
  | { op: 'quit' };

export interface DriverReply {
  id: number;
  result?: unknown;
  error?: string;
}

export interface FetchResult {
  /** null when the handler threw (Electron fails the load; nothing reaches the page). */
  status: number | null;
  headers: Record<string, string>;
  body: string;
  error?: string;
}

export interface HostSnapshot {
  windows: Array<{ options: Record<string, unknown>; loadedUrls: string[] }>;
  privilegedSchemes: Array<{ schemes: unknown; beforeReady: boolean }>;
  switches: Array<{ name: string; value: string | undefined; beforeReady: boolean }>;
  protocolSchemes: string[];
  ipcChannels: string[];
  openedExternally: string[];
  permissionHandlers: { request: boolean; check: boolean };
  storageBackendAskedBeforeReady: boolean;
}

export interface PreloadReport {
  /** Modules the preload asked `require` for (a sandboxed preload gets only a few). */
  required: string[];
  /** Keys exposed on the page, and the type of each member of each. */
  exposed: Record<string, Record<string, string>>;
}

export interface PreviewSnapshot {
  views: Array<{
    webPreferences: Record<string, unknown>;
    /** The partition of the session the view was given, or null for the app's own session. */
    partition: string | null;
    visible: boolean;
    bounds: unknown;
    loadedUrls: string[];
    closed: boolean;
    inWindow: boolean;
  }>;
  /** Every preview.* event the app's page was sent, in order. */
  pageEvents: Array<{ channel: string; payload: unknown }>;
  openedExternally: string[];
}
