// Finds the host's TetherBridge: the preload's `window.tether` in Electron, otherwise a WebSocket
// bridge to the web host that served this page (same host and path scope; the browser's scoped
// cookie authenticates it, so no token is in the socket URL).
import { bridgeFromPreload, type PreloadBridge, type TetherBridge } from '../../shared/ipc';
import { createWebSocketBridge, type WebBridgeStatus } from '../../shared/ipc/web-bridge-client';
import { webSocketUrlFor } from '../../shared/ipc/web-protocol';

export interface ResolvedBridge {
  bridge: TetherBridge;
  /** Web mode only: status changes of the socket, so the app can catch up after a drop. */
  onStatus?: (listener: (status: WebBridgeStatus) => void) => () => void;
}

export function resolveBridge(): ResolvedBridge {
  const electron = (window as { tether?: PreloadBridge }).tether;
  if (electron) return { bridge: bridgeFromPreload(electron) };
  const bridge = createWebSocketBridge(webSocketUrlFor(window.location));
  return { bridge, onStatus: (listener) => bridge.onStatus(listener) };
}
