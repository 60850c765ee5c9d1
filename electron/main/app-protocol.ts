// Serves the built renderer to the window from app://tether/ instead of file://: a real origin,
// only files really inside dist/renderer (symlinks resolved), and a Content-Security-Policy header
// on every response (webRequest hooks do not see file:// loads, so a custom protocol is where the
// CSP can be enforced).
import { net, protocol } from 'electron';
import { promises as fs, realpathSync } from 'node:fs';
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
  const root = realpathSync(rendererDir);
  protocol.handle(SCHEME, async (request) => {
    const file = await rendererFile(root, request.url);
    if (file === null) return new Response('Not found', { status: 404 });
    const upstream = await net.fetch(pathToFileURL(file).href);
    const headers = new Headers(upstream.headers);
    headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(upstream.body, { status: upstream.status, headers });
  });
}

/**
 * The real path of the regular file an app:// URL names, or null unless it lies inside `root`.
 * The containment check runs on the path with symlinks resolved, so `..`, encoded separators
 * (`..%2F`) and a symlink pointing out of the folder all end up outside and are refused.
 */
async function rendererFile(root: string, requestUrl: string): Promise<string | null> {
  const url = new URL(requestUrl);
  if (url.host !== HOST) return null;
  let real: string;
  try {
    real = await fs.realpath(path.resolve(root, `.${decodeURIComponent(url.pathname)}`));
    if (!(await fs.stat(real)).isFile()) return null;
  } catch {
    return null; // malformed escapes, NUL bytes, missing files
  }
  return real.startsWith(root + path.sep) ? real : null;
}
