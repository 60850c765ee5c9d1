// Hosts the AppService for one BrowserWindow: one ipcMain handler per contract command (channel
// names derived from the contract), accepted only from our own page, and the window's renderer
// feed, recreated when the page reloads so replay and flow control start fresh. Bytes sent go in
// buffers of their own (own-buffers).
import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { commandChannel, commandNames, eventChannel, type IpcErrorPayload } from '../../shared/ipc';
import type { AppService } from '../app/app-service';
import { dispatch, type InvokeResult } from '../app/handlers/dispatcher';
import type { RendererFeed } from '../app/processes/renderer-link';
import { ownBuffers } from './own-buffers';

export function hostWindow(service: AppService, window: BrowserWindow, appOrigin: string): () => void {
  const contents = window.webContents;
  let feed: RendererFeed | null = null;
  const attach = (): void => {
    if (feed) service.detach(feed);
    feed = service.attach((name, payload) => {
      if (!contents.isDestroyed()) contents.send(eventChannel(name), ownBuffers(payload));
    });
  };
  attach();
  contents.on('did-start-navigation', (details) => {
    if (details.isMainFrame && !details.isSameDocument) attach();
  });

  const refuse = (message: string): InvokeResult => ({
    ok: false,
    error: { code: 'invalidInput', message } satisfies IpcErrorPayload,
  });
  for (const name of commandNames) {
    ipcMain.handle(commandChannel(name), async (event: IpcMainInvokeEvent, input: unknown) => {
      if (event.sender !== contents || !feed)
        return refuse('Commands are accepted only from the Tether window.');
      if (!event.senderFrame || !event.senderFrame.url.startsWith(`${appOrigin}/`)) {
        return refuse('Commands are accepted only from the Tether page.');
      }
      // Replayed output is a view into the process log's memory (see own-buffers).
      return ownBuffers(await dispatch(service.handlers, feed, name, input));
    });
  }
  return () => {
    for (const name of commandNames) ipcMain.removeHandler(commandChannel(name));
    if (feed) service.detach(feed);
    feed = null;
  };
}
