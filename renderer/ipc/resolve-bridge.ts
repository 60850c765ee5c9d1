// Finds the host's TetherBridge: the preload's `window.tether` in Electron, otherwise a WebSocket
// bridge to the web host that served this page (same host and path scope; the browser's scoped
// cookie authenticates it, so no token is in the socket URL).
import { bridgeFromPreload, type PreloadBridge, type TetherBridge } from '../../shared/ipc';
import { createWebSocketBridge, type WebBridgeStatus } from '../../shared/ipc/web-bridge-client';
import { webSocketUrlFor } from '../../shared/ipc/web-protocol';
import type { HostKind } from './host-kind';
import { appLinkOpener, browserTabLinkOpener, type LinkOpener } from './link-opener';

export interface ResolvedBridge {
  bridge: TetherBridge;
  /** Web mode only: status changes of the socket, so the app can catch up after a drop. */
  onStatus?: (listener: (status: WebBridgeStatus) => void) => () => void;
  /** How links are opened in this host: the system browser (Electron) or a new tab (web). */
  openLink: LinkOpener;
  host: HostKind;
}

export function resolveBridge(): ResolvedBridge {
  const electron = (window as { tether?: PreloadBridge }).tether;
  if (electron) {
    const bridge = bridgeFromPreload(electron);
    return { bridge, openLink: appLinkOpener(bridge), host: 'electron' };
  }
  const bridge = createWebSocketBridge(webSocketUrlFor(window.location));
  return {
    bridge,
    onStatus: (listener) => bridge.onStatus(listener),
    openLink: browserTabLinkOpener(),
    host: 'web',
  };
}
