// Serves the built renderer (dist/renderer) to the browser: only files inside that folder, with
// a content type and a strict Content-Security-Policy on HTML.
import { createReadStream, promises as fs } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
};

export async function serveStatic(
  root: string,
  urlPath: string,
  response: ServerResponse,
  csp: string,
): Promise<void> {
  let relative: string;
  try {
    relative = decodeURIComponent(urlPath === '/' ? '/index.html' : urlPath);
  } catch {
    return plain(response, 400, 'Bad path.');
  }
  const file = path.resolve(root, `.${relative}`);
  if (file !== root && !file.startsWith(root + path.sep)) return plain(response, 404, 'Not found.');
  let stat;
  try {
    stat = await fs.stat(file);
  } catch {
    if (relative === '/index.html') {
      return plain(
        response,
        503,
        `The app's web files are missing (${root}). Build them with: node scripts/build.mjs renderer`,
      );
    }
    return plain(response, 404, 'Not found.');
  }
  if (!stat.isFile()) return plain(response, 404, 'Not found.');
  const type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  response.writeHead(200, {
    'content-type': type,
    'content-length': String(stat.size),
    'x-content-type-options': 'nosniff',
    'cache-control': type.startsWith('text/html') ? 'no-store' : 'no-cache',
    ...(type.startsWith('text/html')
      ? { 'content-security-policy': csp, 'referrer-policy': 'no-referrer' }
      : {}),
  });
  createReadStream(file).pipe(response);
}

export function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  response.end(text + '\n');
}
