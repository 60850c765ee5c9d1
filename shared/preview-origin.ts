// Where a port preview may go: the forward's own loopback origin, on any of the names the forward
// listens on (localhost, 127.0.0.1, [::1]) and nothing else. Checked by parsing, never by prefix;
// the Electron preview view holds every main-frame navigation to it, and the renderer uses it to say
// which address a preview shows.

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The page a preview of local port `port` starts at. */
export function previewHome(port: number): string {
  return `http://localhost:${port}/`;
}

/** `url` is http on a loopback name at exactly `port` (no credentials in it). */
export function inPreviewOrigin(url: string, port: number): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    parsed.protocol === 'http:' &&
    LOOPBACK_HOSTNAMES.has(parsed.hostname) &&
    parsed.port === String(port) &&
    parsed.username === '' &&
    parsed.password === ''
  );
}
