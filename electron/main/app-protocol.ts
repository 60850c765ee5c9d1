// Serves the built renderer to the window from app://tether/ instead of file://: a real origin,
// only files inside dist/renderer, and a Content-Security-Policy header on every response (webRequest
// hooks do not see file:// loads, so a custom protocol is where the CSP can be enforced).
import { net, protocol } from 'electron';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONTENT_SECURITY_POLICY } from './security';

const SCHEME = 'app';
const HOST = 'tether';
export const APP_ORIGIN = `${SCHEME}://${HOST}`;
export const APP_URL = `${APP_ORIGIN}/index.html`;

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

export function serveRenderer(rendererDir: string): void {
  const root = path.resolve(rendererDir);
  protocol.handle(SCHEME, async (request) => {
    const url = new URL(request.url);
    const file = path.resolve(root, `.${decodeURIComponent(url.pathname)}`);
    if (url.host !== HOST || (file !== root && !file.startsWith(root + path.sep))) {
      return new Response('Not found', { status: 404 });
    }
    const upstream = await net.fetch(pathToFileURL(file).href);
    const headers = new Headers(upstream.headers);
    headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(upstream.body, { status: upstream.status, headers });
  });
}
