// Which server a saved token belongs to: the origin (scheme, host, port) of the WebSocket URL it
// was saved with and, for wss, the anchor its certificate was checked against (the pinned
// fingerprint, or the system CAs). A token is only ever sent to that origin with that anchor; a URL
// pointing elsewhere, or a pin changed or removed, needs the token typed again, so neither editing
// a URL nor accepting another certificate can hand the saved secret to another host.
import type { EnvironmentSettings } from './ipc';
import { normalizeFingerprint } from './tls-fingerprint';

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

/** What a wss server's certificate is checked against: its pin, or the system CAs; null for ws://. */
export function tokenAnchor(settings: EnvironmentSettings): string | null {
  if (settings.kind !== 'ws' || !tokenOrigin(settings)?.startsWith('wss:')) return null;
  const pin = settings.tlsFingerprint;
  if (pin === undefined || pin === '') return 'the system CAs';
  return `the pinned certificate ${normalizeFingerprint(pin) ?? pin}`;
}

/** Where a token saved with `settings` may go, in words: the origin, and for wss its anchor. */
export function tokenBinding(settings: EnvironmentSettings): string | null {
  const origin = tokenOrigin(settings);
  if (origin === null) return null;
  const anchor = tokenAnchor(settings);
  return anchor === null ? origin : `${origin} (verified by ${anchor})`;
}

/** True when a token saved with `saved` may be sent to the server that `next` points to. */
export function sameTokenOrigin(saved: EnvironmentSettings, next: EnvironmentSettings): boolean {
  const origin = tokenOrigin(saved);
  return origin !== null && origin === tokenOrigin(next) && tokenAnchor(saved) === tokenAnchor(next);
}
