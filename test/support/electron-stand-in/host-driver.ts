// The child process of the Electron host contract test: imports the built main bundle (argv[2])
// with `electron` mapped to the recording stand-in, lets the app become ready, and then answers the
// test's requests over the fork IPC channel by reporting what was recorded or by calling the
// handlers the app registered, exactly as Electron would call them.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import * as electron from './electron';
import { app, recorder, StandInSession, StandInWebContents } from './electron';
import type {
  DriverReply,
  DriverRequest,
  FetchResult,
  HostSnapshot,
  InvokeFrom,
  PreloadReport,
  PreviewSnapshot,
} from './driver-protocol';

type Handler = (...args: unknown[]) => unknown;

const mainBundle = process.argv[2];
if (!mainBundle) throw new Error('usage: host-driver <dist/electron/main.js>');

function mainWindow() {
  const window = recorder.windows[0];
  if (!window) throw new Error('the app opened no window');
  return window;
}

/** Emits a preventable Electron event on `contents` and says whether a listener prevented it. */
function emitPreventable(contents: StandInWebContents, name: string, ...args: unknown[]): boolean {
  let prevented = false;
  const event = { preventDefault: () => (prevented = true), defaultPrevented: false, url: args[0] };
  contents.emit(name, event, ...args);
  return prevented;
}

function snapshot(): HostSnapshot {
  return {
    windows: recorder.windows.map((w) => ({ options: w.options, loadedUrls: w.loadedUrls })),
    privilegedSchemes: recorder.privilegedSchemes,
    switches: recorder.switches,
    protocolSchemes: [...recorder.protocolHandlers.keys()],
    ipcChannels: [...recorder.ipcHandlers.keys()],
    openedExternally: recorder.openedExternally,
    permissionHandlers: {
      request: recorder.permissionRequestHandler !== null,
      check: recorder.permissionCheckHandler !== null,
    },
    storageBackendAskedBeforeReady: recorder.storageBackendAskedBeforeReady,
  };
}

async function fetchApp(url: string): Promise<FetchResult> {
  const handler = recorder.protocolHandlers.get('app');
  if (!handler) throw new Error('no app:// protocol handler was registered');
  try {
    const response = (await handler(new Request(url))) as Response;
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    return { status: response.status, headers, body: await response.text() };
  } catch (error) {
    // Electron turns a throwing handler into a failed load; the content never reaches the page.
    return { status: null, headers: {}, body: '', error: (error as Error).message };
  }
}

function invoke(channel: string, input: unknown, from: InvokeFrom): Promise<unknown> {
  const handler = recorder.ipcHandlers.get(channel);
  if (!handler) throw new Error(`no handler for IPC channel ${channel}`);
  const window = mainWindow();
  const sender = from === 'other-contents' ? new StandInWebContents() : window.webContents;
  const frameUrl =
    from === 'foreign-frame'
      ? 'https://evil.example/tether/index.html'
      : from === 'lookalike-origin'
        ? 'app://tether.evil.example/index.html'
        : (window.loadedUrls[0] ?? '');
  return Promise.resolve(handler({ sender, senderFrame: { url: frameUrl } }, input));
}

async function headersReceived(url: string, responseHeaders: Record<string, string[]>) {
  const results: unknown[] = [];
  for (const listener of recorder.headersReceived) {
    results.push(
      await new Promise((resolve) => listener({ url, responseHeaders, resourceType: 'mainFrame' }, resolve)),
    );
  }
  return results;
}

async function permission(name: string) {
  const request = recorder.permissionRequestHandler as Handler | null;
  const check = recorder.permissionCheckHandler as Handler | null;
  const granted = request
    ? await new Promise((resolve) => request(mainWindow().webContents, name, resolve, {}))
    : 'no handler';
  const checked = check ? check(mainWindow().webContents, name, 'app://tether', {}) : 'no handler';
  return { granted, checked };
}

/** A webContents created later (devtools, a stray frame): it must get the same hardening. */
function laterContents(): StandInWebContents {
  const contents = new StandInWebContents();
  app.emit('web-contents-created', {}, contents);
  return contents;
}

/**
 * Runs the preload file the window names the way Electron runs a sandboxed preload: one script
 * with a `require` that knows only `electron` (here the stand-in; anything else throws).
 */
function loadPreload(): PreloadReport {
  const window = mainWindow();
  const preload = (window.options.webPreferences as { preload: string }).preload;
  const required: string[] = [];
  const sandboxedRequire = (name: string): unknown => {
    required.push(name);
    if (name === 'electron') return electron;
    throw new Error(`module not found: ${name} (a sandboxed preload can require only electron)`);
  };
  recorder.pageSender = { sender: window.webContents, senderFrame: { url: window.loadedUrls[0] ?? '' } };
  const module = { exports: {} };
  new Function('require', 'module', 'exports', readFileSync(preload, 'utf8'))(
    sandboxedRequire,
    module,
    module.exports,
  );
  const exposed: PreloadReport['exposed'] = {};
  for (const [key, api] of recorder.exposedInMainWorld) {
    exposed[key] = Object.fromEntries(Object.entries(api as object).map(([k, v]) => [k, typeof v]));
  }
  return { required, exposed };
}

function pageBridge(): { invoke: Handler; on: Handler } {
  const bridge = recorder.exposedInMainWorld.get('tether') as { invoke: Handler; on: Handler } | undefined;
  if (!bridge) throw new Error('the preload exposed no window.tether');
  return bridge;
}

async function settle(run: () => unknown): Promise<{ value?: unknown; thrown?: string }> {
  try {
    return { value: await run() };
  } catch (error) {
    return { thrown: (error as Error).message };
  }
}

function previewView(index: number) {
  const view = recorder.views[index];
  if (!view) throw new Error(`no preview view #${index} (${recorder.views.length} made)`);
  return view;
}

function previewSession(index: number): StandInSession {
  const s = previewView(index).webContents.session;
  if (!(s instanceof StandInSession)) throw new Error(`preview view #${index} has the app's own session`);
  return s;
}

function previewSnapshot(): PreviewSnapshot {
  const window = mainWindow();
  return {
    views: recorder.views.map((view) => {
      const { session, ...webPreferences } = view.options.webPreferences ?? {};
      return {
        webPreferences,
        partition: session instanceof StandInSession ? session.partition : null,
        visible: view.visible,
        bounds: view.bounds,
        loadedUrls: view.webContents.loadedUrls,
        closed: view.webContents.closed,
        inWindow: window.contentView.children.includes(view),
      };
    }),
    pageEvents: window.webContents.sentPayloads.filter((e) => e.channel.includes('preview.')),
    openedExternally: recorder.openedExternally,
  };
}

async function quit(): Promise<boolean> {
  app.quit();
  const deadline = Date.now() + 30_000;
  // The app defers the quit until its service has shut down, then quits again.
  while (!app.quitted && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return app.quitted;
}

async function handle(request: DriverRequest): Promise<unknown> {
  switch (request.op) {
    case 'snapshot':
      return snapshot();
    case 'fetch':
      return fetchApp(request.url);
    case 'invoke':
      return invoke(request.channel, request.input, request.from);
    case 'navigate': {
      const contents = request.later ? laterContents() : mainWindow().webContents;
      return { prevented: emitPreventable(contents, 'will-navigate', request.url, false, true) };
    }
    case 'window-open': {
      const contents = request.later ? laterContents() : mainWindow().webContents;
      if (!contents.windowOpenHandler) return { action: 'no handler' };
      return contents.windowOpenHandler({ url: request.url, frameName: '', features: '' });
    }
    case 'attach-webview':
      return { prevented: emitPreventable(mainWindow().webContents, 'will-attach-webview', {}, {}) };
    case 'headers-received':
      return headersReceived(request.url, request.responseHeaders);
    case 'permission':
      return permission(request.permission);
    case 'load-preload':
      return loadPreload();
    case 'preload-invoke':
      return settle(() => pageBridge().invoke(request.name, request.input));
    case 'preload-on':
      return settle(() => typeof pageBridge().on(request.name, () => undefined));
    case 'preview-snapshot':
      return previewSnapshot();
    case 'preview-navigate': {
      let prevented = false;
      previewView(request.view).webContents.emit(request.event, {
        url: request.url,
        isMainFrame: true,
        preventDefault: () => (prevented = true),
      });
      return { prevented };
    }
    case 'preview-window-open': {
      const handler = previewView(request.view).webContents.windowOpenHandler;
      if (!handler) return { action: 'no handler' };
      return handler({ url: request.url, frameName: '', features: '' });
    }
    case 'preview-permission': {
      const s = previewSession(request.view);
      const contents = previewView(request.view).webContents;
      const granted = s.permissionRequestHandler
        ? await new Promise((resolve) =>
            s.permissionRequestHandler!(contents, request.permission, resolve, {}),
          )
        : 'no handler';
      const checked = s.permissionCheckHandler
        ? s.permissionCheckHandler(contents, request.permission, 'http://localhost', {})
        : 'no handler';
      const device = s.devicePermissionHandler ? s.devicePermissionHandler({}) : 'no handler';
      return { granted, checked, device };
    }
    case 'preview-download': {
      let prevented = false;
      previewSession(request.view).emit(
        'will-download',
        { preventDefault: () => (prevented = true) },
        {},
        {},
      );
      return { prevented };
    }
    case 'page-reload':
      mainWindow().webContents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false });
      return { ok: true };
    case 'quit':
      return { quitted: await quit() };
  }
}

await import(pathToFileURL(mainBundle).href);
recorder.ready();
await recorder.firstLoad;
process.on('message', (message: DriverRequest & { id: number }) => {
  const reply = (body: Omit<DriverReply, 'id'>) => process.send?.({ id: message.id, ...body });
  handle(message).then(
    (result) => reply({ result }),
    (error: unknown) => reply({ error: (error as Error).stack ?? String(error) }),
  );
});
process.send?.({ started: true, errorBoxes: recorder.errorBoxes });
