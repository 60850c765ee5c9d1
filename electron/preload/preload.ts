// The only bridge between the sandboxed page and the app: `window.tether`, a PreloadBridge whose
// invoke/on accept only the contract's command and event names and use channels derived from them.
// invoke resolves with the main process's envelope rather than throwing, so the IpcError code
// reaches the page (an Error crossing contextBridge keeps only its message).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  commandChannel,
  eventChannel,
  isCommandName,
  isEventName,
  type PreloadBridge,
} from '../../shared/ipc';

const bridge: PreloadBridge = {
  async invoke(name, input) {
    if (!isCommandName(name)) throw new Error(`Unknown command "${String(name)}".`);
    return (await ipcRenderer.invoke(commandChannel(name), input)) as never;
  },
  on(name, listener) {
    if (!isEventName(name)) throw new Error(`Unknown event "${String(name)}".`);
    const channel = eventChannel(name);
    const forward = (_event: IpcRendererEvent, payload: unknown): void => listener(payload as never);
    ipcRenderer.on(channel, forward);
    return () => {
      ipcRenderer.removeListener(channel, forward);
    };
  },
};

contextBridge.exposeInMainWorld('tether', bridge);
