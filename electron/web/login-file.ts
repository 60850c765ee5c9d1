// The file the browser opener is given instead of a URL: a private HTML page (0600, in a fresh 0700
// folder) that redirects to a one-time login URL. Only its path appears in the opener's argv, which
// every local user can read in /proc; the code inside is dead once used.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface LoginFile {
  /** Absolute path of the HTML file: what to hand to the opener. */
  readonly path: string;
  /** Deletes the file and its folder (idempotent). */
  remove(): void;
}

/** Writes the redirect page for `loginUrl` into a new private folder under `parent`. */
export function writeLoginFile(parent: string, loginUrl: string): LoginFile {
  mkdirSync(parent, { recursive: true, mode: 0o700 });
  const folder = mkdtempSync(path.join(parent, 'open-'));
  const file = path.join(folder, 'tether.html');
  writeFileSync(file, redirectPage(loginUrl), { mode: 0o600, flag: 'wx' });
  return { path: file, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

function redirectPage(url: string): string {
  const href = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8">',
    '<meta name="referrer" content="no-referrer">',
    `<meta http-equiv="refresh" content="0;url=${href}">`,
    '<title>Opening Tether</title></head>',
    `<body><p>Opening Tether… If nothing happens, <a href="${href}">open it here</a>.</p></body></html>`,
    '',
  ].join('\n');
}
