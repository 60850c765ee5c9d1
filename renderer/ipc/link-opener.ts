// How this renderer opens a link once the user has agreed: in Electron the AppService hands it to
// the system browser; in web mode the page opens a new tab itself, so the web host runs no program.
import type { TetherBridge } from '../../shared/ipc';

export type LinkOpener = (url: string) => Promise<void>;

/** Electron: `shell.openExternal` through the AppService (which checks it is http(s) again). */
export function appLinkOpener(bridge: TetherBridge): LinkOpener {
  return async (url) => {
    await bridge.invoke('shell.openExternal', { url });
  };
}

/** Web mode: a new browser tab that cannot reach back into this page (no opener, no referrer). */
export function browserTabLinkOpener(): LinkOpener {
  return async (url) => {
    window.open(url, '_blank', 'noopener,noreferrer');
  };
}
