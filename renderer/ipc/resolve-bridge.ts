// Finds the host's TetherBridge: the preload's `window.tether` in Electron, otherwise a WebSocket
// bridge to the web host that served this page (same host, token from the page URL).
import { bridgeFromPreload, type PreloadBridge, type TetherBridge } from '../../shared/ipc';
import { createWebSocketBridge, type WebBridgeStatus } from '../../shared/ipc/web-bridge-client';
import { WEB_SOCKET_PATH, WEB_TOKEN_PARAM } from '../../shared/ipc/web-protocol';
import { appLinkOpener, browserTabLinkOpener, type LinkOpener } from './link-opener';

export interface ResolvedBridge {
  bridge: TetherBridge;
  /** Web mode only: status changes of the socket, so the app can catch up after a drop. */
  onStatus?: (listener: (status: WebBridgeStatus) => void) => () => void;
  /** How links are opened in this host: the system browser (Electron) or a new tab (web). */
  openLink: LinkOpener;
}

export function resolveBridge(): ResolvedBridge {
  const electron = (window as { tether?: PreloadBridge }).tether;
  if (electron) {
    const bridge = bridgeFromPreload(electron);
    return { bridge, openLink: appLinkOpener(bridge) };
  }
  const token = new URLSearchParams(window.location.search).get(WEB_TOKEN_PARAM) ?? '';
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const url = `${scheme}//${window.location.host}${WEB_SOCKET_PATH}?${WEB_TOKEN_PARAM}=${encodeURIComponent(token)}`;
  const bridge = createWebSocketBridge(url);
  return { bridge, onStatus: (listener) => bridge.onStatus(listener), openLink: browserTabLinkOpener() };
}
