// The Electron security posture: a strict CSP on every response, no navigation away from the app's
// origin, no new windows (http/https links go to the system browser), no permissions granted.
import { shell, type Session, type WebContents } from 'electron';
import { contentSecurityPolicy } from '../../shared/content-security-policy';

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

export function hardenSession(session: Session): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

export function hardenContents(contents: WebContents, appOrigin: string): void {
  contents.on('will-navigate', (event, url) => {
    if (!url.startsWith(`${appOrigin}/`)) {
      event.preventDefault();
      openIfWeb(url);
    }
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openIfWeb(url);
    return { action: 'deny' };
  });
}

function openIfWeb(url: string): void {
  try {
    const { protocol } = new URL(url);
    if (protocol === 'http:' || protocol === 'https:') void shell.openExternal(url);
  } catch {
    // Not a URL: nothing to open.
  }
}
