// The one rule for links Tether opens outside itself: only http and https URLs, checked by parsing
// (never by string prefix). Every place that opens a link (the app command, the Electron host, the
// web host's browser opener, the renderer) goes through it, so file:, javascript: and custom
// protocol handlers are refused everywhere with the same message.

const WEB_PROTOCOLS = new Set(['http:', 'https:']);

/** A link Tether refuses to open; the message names the scheme and what is allowed. */
export class UnsafeLinkError extends Error {
  override readonly name = 'UnsafeLinkError';
  readonly code = 'unsafeLink';
}

/**
 * Parses `url` and returns it if it is http(s), throwing UnsafeLinkError otherwise. The returned
 * URL's `href` is the normalised form (spaces and quotes percent-encoded), which is what openers
 * should hand on.
 */
export function requireWebLink(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UnsafeLinkError(`"${url}" is not a valid URL; Tether opens only http and https links.`);
  }
  if (!WEB_PROTOCOLS.has(parsed.protocol)) {
    throw new UnsafeLinkError(
      `Tether opens only http and https links; "${parsed.protocol}" links are refused (${url}).`,
    );
  }
  return parsed;
}

/** The parsed http(s) URL, or null for anything else. */
export function webLinkOrNull(url: string): URL | null {
  try {
    return requireWebLink(url);
  } catch {
    return null;
  }
}

/**
 * Wraps a host's opener (Electron's shell.openExternal) so it only ever receives normalised http(s)
 * URLs; anything else rejects with UnsafeLinkError before the opener is called.
 */
export function webLinksOnly(open: (url: string) => Promise<void>): (url: string) => Promise<void> {
  return async (url) => open(requireWebLink(url).href);
}
