// Which server a saved token belongs to: the origin (scheme, host, port) of the WebSocket URL it
// was saved with. A token is only ever sent to that origin; a URL pointing elsewhere needs the
// token typed again, so editing a URL can never hand the saved secret to another host.
import type { EnvironmentSettings } from './ipc';

/** `ws://host:port` of a ws environment's URL, or null (not ws, or not a URL). */
export function tokenOrigin(settings: EnvironmentSettings): string | null {
  if (settings.kind !== 'ws') return null;
  try {
    // ws and wss are special schemes: the origin is lower-cased and omits a default port.
    return new URL(settings.url).origin;
  } catch {
    return null;
  }
}

/** True when a token saved with `saved` may be sent to the server that `next` points to. */
export function sameTokenOrigin(saved: EnvironmentSettings, next: EnvironmentSettings): boolean {
  const origin = tokenOrigin(saved);
  return origin !== null && origin === tokenOrigin(next);
}
