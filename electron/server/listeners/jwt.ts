// Verifies the HS256 JSON Web Tokens of `--ws-auth signed-bearer-token`, with codex's claim rules
// (exp required, nbf optional, iss/aud checked when configured, a clock-skew allowance) and its
// HTTP 401 bodies.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface JwtConfig {
  secret: Buffer;
  issuer: string | undefined;
  audience: string | undefined;
  maxClockSkewSeconds: number;
}

function decodeSegment(segment: string): unknown {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) throw new Error('not base64url');
  return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
}

/** Returns null for a valid token, otherwise the 401 body codex sends. */
export function verifyJwt(token: string, config: JwtConfig, nowSeconds = Date.now() / 1000): string | null {
  const invalid = 'invalid websocket jwt';
  const parts = token.split('.');
  if (parts.length !== 3) return invalid;
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  let header: unknown;
  let claims: Record<string, unknown>;
  try {
    header = decodeSegment(headerPart);
    const payload = decodeSegment(payloadPart);
    if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return invalid;
    claims = payload as Record<string, unknown>;
  } catch {
    return invalid;
  }
  if ((header as { alg?: unknown } | null)?.alg !== 'HS256') return invalid;
  const expected = createHmac('sha256', config.secret).update(`${headerPart}.${payloadPart}`).digest();
  const presented = Buffer.from(signaturePart, 'base64url');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return invalid;
  const skew = config.maxClockSkewSeconds;
  if (typeof claims.exp !== 'number') return invalid;
  if (nowSeconds > claims.exp + skew) return 'expired websocket jwt';
  if (claims.nbf !== undefined) {
    if (typeof claims.nbf !== 'number') return invalid;
    if (nowSeconds < claims.nbf - skew) return 'websocket jwt is not valid yet';
  }
  if (config.issuer !== undefined && claims.iss !== config.issuer) return 'websocket jwt issuer mismatch';
  if (config.audience !== undefined) {
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!audiences.includes(config.audience)) return 'websocket jwt audience mismatch';
  }
  return null;
}

/** The `sub` claim of a token verifyJwt accepted, or null when it has none (or not a string). */
export function jwtSubject(token: string): string | null {
  try {
    const claims = decodeSegment(token.split('.')[1] ?? '') as { sub?: unknown } | null;
    return typeof claims?.sub === 'string' && claims.sub !== '' ? claims.sub : null;
  } catch {
    return null;
  }
}
