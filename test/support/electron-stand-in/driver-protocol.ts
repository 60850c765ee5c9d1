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
  protocolSchemes: string[];
  ipcChannels: string[];
  openedExternally: string[];
  permissionHandlers: { request: boolean; check: boolean };
  storageBackendAskedBeforeReady: boolean;
}
