// Checks the `Authorization: Bearer <token>` header of a WebSocket upgrade: a capability token
// (compared as SHA-256 digests in constant time) or an HS256 JWT, and names the principal the
// credential stands for (principal.ts). Tokens are never logged.
import { createHash, timingSafeEqual } from 'node:crypto';
import { jwtSubject, verifyJwt } from './jwt';
import { ANONYMOUS_PRINCIPAL, connectionPrincipal, type Principal } from './principal';
import type { AuthConfig } from '../server-options';

/** The upgrade may go ahead as `principal`, or is refused with the HTTP 401 body codex sends. */
export type AuthOutcome = { principal: Principal } | { failure: string };

export function authenticate(header: string | undefined, auth: AuthConfig): AuthOutcome {
  if (auth.kind === 'none') return { principal: ANONYMOUS_PRINCIPAL };
  if (header === undefined) return { failure: 'missing websocket bearer token' };
  const space = header.indexOf(' ');
  if (space <= 0 || !/^[\x20-\x7e]*$/.test(header)) return { failure: 'invalid authorization header' };
  if (header.slice(0, space).toLowerCase() !== 'bearer') return { failure: 'invalid authorization header' };
  const token = header.slice(space + 1).trim();
  if (token === '') return { failure: 'invalid authorization header' };
  if (auth.kind === 'signedBearerToken') {
    const failure = verifyJwt(token, auth);
    if (failure !== null) return { failure };
    // Tokens of one subject are one principal; a token without a subject stands for no one else.
    const subject = jwtSubject(token);
    return { principal: subject === null ? connectionPrincipal() : `jwt:${subject}` };
  }
  const presented = createHash('sha256').update(token).digest();
  if (!timingSafeEqual(presented, auth.tokenSha256)) return { failure: 'invalid websocket bearer token' };
  return { principal: `token:${presented.toString('hex')}` };
}

/** Returns null when the request may upgrade, otherwise the HTTP 401 body codex sends. */
export function checkAuthorization(header: string | undefined, auth: AuthConfig): string | null {
  const outcome = authenticate(header, auth);
  return 'failure' in outcome ? outcome.failure : null;
}
