// Electron entry point: one window hosting the app, the AppService behind it, and the lifecycle
// around them (single instance, reconnect on resume / network back, asking before a quit that
// would end local processes, clean shutdown that stops the Local exec-server while remote
// processes keep running and are saved for the next start).
import { app, BrowserWindow, dialog, net, powerMonitor, session } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppService } from '../app/app-service';
import { remoteClientFactory } from '../app/environments/client-factory';
import { fileDownloadTarget } from '../app/files/file-download-target';
import { FileSecretStore } from '../app/persistence/file-secret-store';
import { localFolderTarget } from '../app/files/folder-download-target';
import { localPathUnder } from '../client/files/entry-names';
import { applyClientHeapPolicy } from '../client/heap-policy';
import { findPackageRoot, localServerCommand } from '../app/environments/local-server';
import { installMenu } from './app-menu';
import { APP_ORIGIN, APP_URL, registerAppScheme, serveRenderer } from './app-protocol';
import { hostWindow } from './electron-host';
import { openExternalLink } from './open-external';
import { isPreviewContents, PreviewViews } from './preview-views';
import { quitConfirmation } from './quit-confirmation';
import { safeStorageSealer } from './safe-storage-sealer';
import { DISABLED_CHROMIUM_FEATURES } from './renderer-switches';
import { hardenContents, hardenSession } from './security';
import { loadWindowState, trackWindowState } from './window-state';
import { errorMessage } from '../../shared/error-message';

/** How often the network state is polled (Electron has no "online" event in the main process). */
const ONLINE_POLL_MS = 3_000;

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.join(here, '..', 'renderer');

let mainWindow: BrowserWindow | null = null;

// This process hosts the app's clients (client/heap-policy.ts).
applyClientHeapPolicy();

// Lets tests (and people with several setups) keep the config somewhere else.
if (process.env.TETHER_USER_DATA) app.setPath('userData', path.resolve(process.env.TETHER_USER_DATA));

// Before the app is ready, as Chromium reads its switches then (see renderer-switches).
app.commandLine.appendSwitch('disable-features', DISABLED_CHROMIUM_FEATURES.join(','));
registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.whenReady().then(start, (error: unknown) => fail(error));
}

async function start(): Promise<void> {
  const dataDir = app.getPath('userData');
  hardenSession(session.defaultSession);
  serveRenderer(rendererDir);
  // A preview view's contents get their own rules (preview-views.ts): they may navigate within
  // their forward's origin, which the app page's rules forbid.
  app.on('web-contents-created', (_event, contents) => {
    if (!isPreviewContents(contents)) hardenContents(contents, APP_ORIGIN);
  });
  const previews = new PreviewViews();

  const service = await AppService.create({
    dataDir,
    secrets: new FileSecretStore(path.join(dataDir, 'tokens.json'), await safeStorageSealer()),
    createClient: remoteClientFactory(),
    localServer: localServerCommand({
      packageRoot: findPackageRoot(here),
      execPath: process.execPath,
      electron: true,
    }),
    host: {
      openExternal: openExternalLink,
      previews,
      downloads: {
        begin: async ({ name }) => {
          const options = { defaultPath: path.join(app.getPath('downloads'), name) };
          const choice = mainWindow
            ? await dialog.showSaveDialog(mainWindow, options)
            : await dialog.showSaveDialog(options);
          if (choice.canceled || !choice.filePath) return null;
          return { url: null, target: fileDownloadTarget(choice.filePath) };
        },
        // The tree goes into a folder named after the remote one, inside the folder picked here.
        beginFolder: async ({ name }) => {
          const options = {
            title: `Download the folder ${name} into…`,
            buttonLabel: 'Download here',
            defaultPath: app.getPath('downloads'),
            properties: ['openDirectory', 'createDirectory'] as Array<'openDirectory' | 'createDirectory'>,
          };
          const choice = mainWindow
            ? await dialog.showOpenDialog(mainWindow, options)
            : await dialog.showOpenDialog(options);
          const parent = choice.filePaths[0];
          if (choice.canceled || !parent) return null;
          // The name is the server's (checked already); localPathUnder checks it stays in `parent`.
          return { url: null, target: Promise.resolve(localFolderTarget(localPathUnder(parent, name))) };
        },
      },
    },
  });

  installMenu({ reconnectAll: () => service.reconnectAll(), runCommand: (id) => service.menuCommand(id) });
  powerMonitor.on('resume', () => service.networkMayBeBack());
  powerMonitor.on('unlock-screen', () => service.networkMayBeBack());
  let online = net.isOnline();
  const onlineTimer = setInterval(() => {
    const now = net.isOnline();
    if (now && !online) service.networkMayBeBack();
    online = now;
  }, ONLINE_POLL_MS);

  const state = await loadWindowState(dataDir);
  const window = new BrowserWindow({
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    width: state.width ?? 1280,
    height: state.height ?? 820,
    minWidth: 640,
    minHeight: 400,
    title: 'Tether',
    show: false,
    webPreferences: {
      preload: path.join(here, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  });
  mainWindow = window;
  if (state.maximized) window.maximize();
  trackWindowState(window, dataDir);
  const unhost = hostWindow(service, window, APP_ORIGIN);
  previews.attach(window);
  const confirmation = quitConfirmation(() => service.quitWarning());
  // Closing the last window quits: ask while the window is still there to come back to.
  window.on('close', (event) => {
    if (!confirmation.mayQuit(window)) event.preventDefault();
  });
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    unhost();
    mainWindow = null;
  });
  await window.loadURL(APP_URL);

  app.on('window-all-closed', () => app.quit());
  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    event.preventDefault();
    if (!confirmation.mayQuit(mainWindow)) return;
    quitting = true;
    clearInterval(onlineTimer);
    void service.shutdown().finally(() => app.quit());
  });
}

function fail(error: unknown): void {
  const message = errorMessage(error);
  console.error(`tether: cannot start: ${message}`);
  dialog.showErrorBox('Tether cannot start', message);
  app.exit(1);
}
