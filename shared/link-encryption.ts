// Whether an environment's WebSocket URL sends its traffic (token included) in the clear over a
// network: ws:// to anything but a loopback host. Pure URL logic, shared by the app and the UI.

/** True for 127.0.0.0/8, ::1 (and its IPv4-mapped 127 form) and localhost. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (/^127(?:\.\d{1,3}){3}$/.test(host)) return true;
  // WHATWG URL writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
  return host === '::1' || /^::ffff:(?:127\.|7f[0-9a-f]{2}:)/.test(host);
}

/** True when `url` is ws:// to a non-loopback host: readable and alterable by the network. */
export function isUnencryptedRemoteUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === 'ws:' && !isLoopbackHost(parsed.hostname);
}
