// The only bridge between the sandboxed page and the app: `window.tether`, a TetherBridge whose
// invoke/on accept only the contract's command and event names and use channels derived from them.
// Errors arrive as Error(message); the IpcError code does not survive the context bridge.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  commandChannel,
  eventChannel,
  isCommandName,
  isEventName,
  type IpcErrorPayload,
  type TetherBridge,
} from '../../shared/ipc';

type Envelope = { ok: true; output: unknown } | { ok: false; error: IpcErrorPayload };

const bridge: TetherBridge = {
  async invoke(name, input) {
    if (!isCommandName(name)) throw new Error(`Unknown command "${String(name)}".`);
    const result = (await ipcRenderer.invoke(commandChannel(name), input)) as Envelope;
    if (!result.ok) throw new Error(result.error.message);
    return result.output as never;
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
