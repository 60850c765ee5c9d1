// Checks the `Authorization: Bearer <token>` header of a WebSocket upgrade: a capability token
// (compared as SHA-256 digests in constant time) or an HS256 JWT. Tokens are never logged.
import { createHash, timingSafeEqual } from 'node:crypto';
import { verifyJwt } from './jwt';
import type { AuthConfig } from '../server-options';

/** Returns null when the request may upgrade, otherwise the HTTP 401 body codex sends. */
export function checkAuthorization(header: string | undefined, auth: AuthConfig): string | null {
  if (auth.kind === 'none') return null;
  if (header === undefined) return 'missing websocket bearer token';
  const space = header.indexOf(' ');
  if (space <= 0 || !/^[\x20-\x7e]*$/.test(header)) return 'invalid authorization header';
  if (header.slice(0, space).toLowerCase() !== 'bearer') return 'invalid authorization header';
  const token = header.slice(space + 1).trim();
  if (token === '') return 'invalid authorization header';
  if (auth.kind === 'signedBearerToken') return verifyJwt(token, auth);
  const presented = createHash('sha256').update(token).digest();
  return timingSafeEqual(presented, auth.tokenSha256) ? null : 'invalid websocket bearer token';
}
