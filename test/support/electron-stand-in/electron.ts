// A recording stand-in for the `electron` module, so the built main bundle can run in plain Node
// (no Electron binary can be downloaded here): it records what the app asks Electron for (window
// options, protocol and IPC handlers, session hooks) and lets the driver call those handlers.
import { EventEmitter } from 'node:events';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

type Handler = (...args: unknown[]) => unknown;

/** Which safeStorage backend to pretend (TETHER_STAND_IN_KEYRING): a keyring, basic_text, or none. */
const KEYRING = process.env.TETHER_STAND_IN_KEYRING ?? 'gnome_libsecret';

let ready = false;
let markReady: () => void = () => undefined;
const readyPromise = new Promise<void>((resolve) => (markReady = resolve));

/** The app's own session; its hooks are recorded on `recorder` (which exists by the time they run). */
const defaultSession = {
  webRequest: { onHeadersReceived: (listener: Handler) => recorder.headersReceived.push(listener) },
  setPermissionRequestHandler: (handler: Handler) => (recorder.permissionRequestHandler = handler),
  setPermissionCheckHandler: (handler: Handler) => (recorder.permissionCheckHandler = handler),
};

/** A session from `session.fromPartition` (the default session is the plain object further down). */
export class StandInSession extends EventEmitter {
  permissionRequestHandler: Handler | null = null;
  permissionCheckHandler: Handler | null = null;
  devicePermissionHandler: Handler | null = null;

  constructor(readonly partition: string) {
    super();
  }
  setPermissionRequestHandler(handler: Handler): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: Handler): void {
    this.permissionCheckHandler = handler;
  }
  setDevicePermissionHandler(handler: Handler): void {
    this.devicePermissionHandler = handler;
  }
}

export class StandInWebContents extends EventEmitter {
  private static nextId = 1;
  readonly id = StandInWebContents.nextId++;
  windowOpenHandler: Handler | null = null;
  readonly sent: string[] = [];
  /** What was sent with each channel, in order. */
  readonly sentPayloads: Array<{ channel: string; payload: unknown }> = [];
  readonly loadedUrls: string[] = [];
  closed = false;
  readonly navigationHistory = {
    canGoBack: () => false,
    canGoForward: () => false,
    goBack: () => undefined,
    goForward: () => undefined,
  };

  constructor(readonly session: unknown = defaultSession) {
    super();
  }
  send(channel: string, payload?: unknown): void {
    this.sent.push(channel);
    this.sentPayloads.push({ channel, payload });
  }
  isDestroyed(): boolean {
    return this.closed;
  }
  setWindowOpenHandler(handler: Handler): void {
    this.windowOpenHandler = handler;
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrls.push(url);
  }
  getURL(): string {
    return this.loadedUrls.at(-1) ?? '';
  }
  getTitle(): string {
    return '';
  }
  isLoading(): boolean {
    return false;
  }
  getZoomFactor(): number {
    return 1;
  }
  reload(): void {}
  close(): void {
    this.closed = true;
  }
}

/** A WebContentsView: its contents, in the session its webPreferences name, and where it is shown. */
export class WebContentsView {
  readonly webContents: StandInWebContents;
  visible = true;
  bounds: unknown = null;

  constructor(readonly options: { webPreferences?: Record<string, unknown> } = {}) {
    this.webContents = new StandInWebContents(options.webPreferences?.session ?? defaultSession);
    recorder.views.push(this);
    app.emit('web-contents-created', {}, this.webContents);
  }
  setVisible(visible: boolean): void {
    this.visible = visible;
  }
  setBounds(bounds: unknown): void {
    this.bounds = bounds;
  }
}

export class StandInBrowserWindow extends EventEmitter {
  readonly webContents = new StandInWebContents();
  readonly loadedUrls: string[] = [];
  /** The views shown in the window, in order. */
  readonly contentView = {
    children: [] as WebContentsView[],
    addChildView: (view: WebContentsView) => this.contentView.children.push(view),
    removeChildView: (view: WebContentsView) => {
      this.contentView.children = this.contentView.children.filter((v) => v !== view);
    },
  };

  constructor(readonly options: Record<string, unknown>) {
    super();
    recorder.windows.push(this);
    // As in Electron: the app hears of the window's contents while the window is being made.
    app.emit('web-contents-created', {}, this.webContents);
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrls.push(url);
    recorder.loaded();
  }
  maximize(): void {}
  show(): void {}
  focus(): void {}
  restore(): void {}
  isMinimized(): boolean {
    return false;
  }
  isMaximized(): boolean {
    return false;
  }
  isDestroyed(): boolean {
    return false;
  }
  getNormalBounds(): { x: number; y: number; width: number; height: number } {
    return { x: 0, y: 0, width: 1280, height: 820 };
  }
}

let markLoaded: () => void = () => undefined;

/** Everything the main bundle asked for, for the driver to report and call. */
export const recorder = {
  windows: [] as StandInBrowserWindow[],
  views: [] as WebContentsView[],
  partitions: new Map<string, StandInSession>(),
  privilegedSchemes: [] as Array<{ schemes: unknown; beforeReady: boolean }>,
  /** Chromium switches appended (app.commandLine.appendSwitch), each with whether it came before ready. */
  switches: [] as Array<{ name: string; value: string | undefined; beforeReady: boolean }>,
  protocolHandlers: new Map<string, Handler>(),
  ipcHandlers: new Map<string, Handler>(),
  headersReceived: [] as Handler[],
  permissionRequestHandler: null as Handler | null,
  permissionCheckHandler: null as Handler | null,
  openedExternally: [] as string[],
  errorBoxes: [] as string[],
  storageBackendAskedBeforeReady: false,
  /** What the preload put on the page (contextBridge.exposeInMainWorld), by key. */
  exposedInMainWorld: new Map<string, unknown>(),
  /** The page's webContents, as the sender of the preload's ipcRenderer calls. */
  pageSender: null as { sender: StandInWebContents; senderFrame: { url: string } } | null,
  firstLoad: new Promise<void>((resolve) => (markLoaded = resolve)),
  loaded: () => markLoaded(),
  /** Lets `app.whenReady()` resolve, as Electron does once it has initialised. */
  ready(): void {
    ready = true;
    markReady();
  },
};

class StandInApp extends EventEmitter {
  private readonly paths = new Map<string, string>([['downloads', os.tmpdir()]]);
  quitted = false;

  setPath(name: string, value: string): void {
    this.paths.set(name, value);
  }
  getPath(name: string): string {
    const value = this.paths.get(name);
    if (!value) throw new Error(`stand-in: no path "${name}" (set TETHER_USER_DATA)`);
    return value;
  }
  readonly commandLine = {
    appendSwitch: (name: string, value?: string): void => {
      recorder.switches.push({ name, value, beforeReady: !ready });
    },
  };
  requestSingleInstanceLock(): boolean {
    return true;
  }
  whenReady(): Promise<void> {
    return readyPromise;
  }
  /** Electron's order: before-quit (preventable), then will-quit and quit. */
  quit(): void {
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (prevented) return;
    this.emit('will-quit', { preventDefault: () => undefined });
    this.quitted = true;
    this.emit('quit');
  }
  exit(code = 0): never {
    process.exit(code);
  }
}

export const app = new StandInApp();
export const BrowserWindow = StandInBrowserWindow;
export const powerMonitor = new EventEmitter();

export const dialog = {
  showSaveDialog: async () => ({ canceled: true }),
  showErrorBox: (title: string, content: string) => recorder.errorBoxes.push(`${title}: ${content}`),
};

export const net = {
  isOnline: () => true,
  /** Like Chromium's net.fetch for file: URLs: follows symlinks, fails for a missing file. */
  async fetch(url: string): Promise<Response> {
    if (!url.startsWith('file:')) throw new Error(`stand-in net.fetch serves only file: URLs, not ${url}`);
    try {
      return new Response(await fs.readFile(fileURLToPath(url)), { status: 200 });
    } catch (error) {
      throw new TypeError(`net::ERR_FILE_NOT_FOUND (${(error as Error).message})`);
    }
  },
};

export const session = {
  defaultSession,
  fromPartition(partition: string): StandInSession {
    const known = recorder.partitions.get(partition) ?? new StandInSession(partition);
    recorder.partitions.set(partition, known);
    return known;
  },
};

export const shell = {
  openExternal: async (url: string) => {
    recorder.openedExternally.push(url);
  },
};

export const protocol = {
  registerSchemesAsPrivileged: (schemes: unknown) =>
    recorder.privilegedSchemes.push({ schemes, beforeReady: !ready }),
  handle: (scheme: string, handler: Handler) => recorder.protocolHandlers.set(scheme, handler),
};

export const ipcMain = {
  handle(channel: string, handler: Handler): void {
    if (recorder.ipcHandlers.has(channel)) {
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    }
    recorder.ipcHandlers.set(channel, handler);
  },
  removeHandler: (channel: string) => recorder.ipcHandlers.delete(channel),
};

export const Menu = {
  buildFromTemplate: (template: unknown) => template,
  setApplicationMenu: () => undefined,
};

export const screen = {
  getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
};

export const safeStorage = {
  isAsyncEncryptionAvailable: async () => KEYRING !== 'unavailable',
  getSelectedStorageBackend(): string {
    if (!ready) recorder.storageBackendAskedBeforeReady = true;
    return ready && KEYRING !== 'unavailable' ? KEYRING : 'unknown';
  },
  encryptStringAsync: async (plain: string) => Buffer.from(`stand-in-sealed:${plain}`),
  decryptStringAsync: async (sealed: Buffer) => ({
    result: sealed.toString().replace(/^stand-in-sealed:/, ''),
    shouldReEncrypt: false,
  }),
};

// ── Renderer-side modules, for the preload ────────────────────────────────────────────────────

export const contextBridge = {
  exposeInMainWorld: (key: string, api: unknown) => recorder.exposedInMainWorld.set(key, api),
};

/** Forwards the preload's calls to the main process's handlers, as sent from the app's page. */
export const ipcRenderer = {
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    const handler = recorder.ipcHandlers.get(channel);
    if (!handler) throw new Error(`Error invoking remote method '${channel}': No handler registered`);
    return handler(recorder.pageSender, ...args);
  },
  on: () => ipcRenderer,
  removeListener: () => ipcRenderer,
};
