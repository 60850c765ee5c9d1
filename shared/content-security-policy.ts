// The renderer's Content-Security-Policy, written once for both hosts: the Electron app (its own
// `app://` origin) and web mode (the page must also reach its host's WebSocket).

/**
 * The page may load only its own scripts, styles, images and fonts, and talk only to its own
 * origin plus `connect` (e.g. the web host's `ws://` origin).
 */
export function contentSecurityPolicy(connect: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...connect].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}
