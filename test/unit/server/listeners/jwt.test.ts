import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkAuthorization } from '../../../../electron/server/listeners/auth';
import { verifyJwt } from '../../../../electron/server/listeners/jwt';
import { parseServerOptions } from '../../../../electron/server/server-options';

const secret = Buffer.from('0123456789abcdef0123456789abcdef');
const config = { secret, issuer: undefined, audience: undefined, maxClockSkewSeconds: 30 };
const now = 1_800_000_000;

function sign(claims: Record<string, unknown>, key = secret, alg = 'HS256'): string {
  const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${encode({ alg, typ: 'JWT' })}.${encode(claims)}`;
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
}

describe('HS256 bearer tokens', () => {
  it('accepts a valid token, within the clock skew', () => {
    expect(verifyJwt(sign({ exp: now + 60 }), config, now)).toBeNull();
    expect(verifyJwt(sign({ exp: now - 20 }), config, now)).toBeNull();
  });

  it('rejects bad signatures, algorithms, shapes and a missing exp', () => {
    expect(verifyJwt(sign({ exp: now + 60 }, Buffer.from('x'.repeat(32))), config, now)).toBe(
      'invalid websocket jwt',
    );
    expect(verifyJwt(sign({ exp: now + 60 }, secret, 'none'), config, now)).toBe('invalid websocket jwt');
    expect(verifyJwt('abc', config, now)).toBe('invalid websocket jwt');
    expect(verifyJwt(sign({}), config, now)).toBe('invalid websocket jwt');
  });

  it('checks exp, nbf, iss and aud with codex messages', () => {
    expect(verifyJwt(sign({ exp: now - 31 }), config, now)).toBe('expired websocket jwt');
    expect(verifyJwt(sign({ exp: now + 60, nbf: now + 31 }), config, now)).toBe(
      'websocket jwt is not valid yet',
    );
    const strict = { ...config, issuer: 'me', audience: 'tether' };
    expect(verifyJwt(sign({ exp: now + 60, iss: 'you', aud: 'tether' }), strict, now)).toBe(
      'websocket jwt issuer mismatch',
    );
    expect(verifyJwt(sign({ exp: now + 60, iss: 'me' }), strict, now)).toBe(
      'websocket jwt audience mismatch',
    );
    expect(verifyJwt(sign({ exp: now + 60, iss: 'me', aud: ['x', 'tether'] }), strict, now)).toBeNull();
  });

  it('rejects a signature of the wrong length without throwing', () => {
    const token = sign({ exp: now + 60 });
    const truncated = token.slice(0, token.lastIndexOf('.') + 1) + 'AAAA';
    expect(verifyJwt(truncated, config, now)).toBe('invalid websocket jwt');
    expect(verifyJwt(token.slice(0, token.lastIndexOf('.') + 1), config, now)).toBe('invalid websocket jwt');
  });

  it('rejects a token whose payload was changed after signing', () => {
    const [header, , signature] = sign({ exp: now + 60 }).split('.');
    const forged = Buffer.from(JSON.stringify({ exp: now + 6_000 })).toString('base64url');
    expect(verifyJwt(`${header}.${forged}.${signature}`, config, now)).toBe('invalid websocket jwt');
  });

  it('rejects tokens with too many parts, segments that are not base64url, or non-object payloads', () => {
    expect(verifyJwt(`${sign({ exp: now + 60 })}.x`, config, now)).toBe('invalid websocket jwt');
    const signed = (header: string, payload: string): string => {
      const body = `${header}.${payload}`;
      return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
    };
    const header = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');
    const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
    // Standard base64 symbols, at the start or the end of a segment, are not base64url.
    expect(verifyJwt(signed(`+${header}`, encode({ exp: now + 60 })), config, now)).toBe(
      'invalid websocket jwt',
    );
    expect(verifyJwt(signed(header, `${encode({ exp: now + 60 })}/`), config, now)).toBe(
      'invalid websocket jwt',
    );
    for (const payload of [null, [1], 5, 'text']) {
      expect(verifyJwt(signed(header, encode(payload)), config, now)).toBe('invalid websocket jwt');
    }
    expect(verifyJwt(signed(encode(null), encode({ exp: now + 60 })), config, now)).toBe(
      'invalid websocket jwt',
    );
    expect(verifyJwt(signed(header, encode({ exp: now + 60 })), config, now)).toBeNull();
  });

  it('takes exp and nbf to the second, skew included', () => {
    expect(verifyJwt(sign({ exp: now - 30 }), config, now)).toBeNull();
    expect(verifyJwt(sign({ exp: now - 31 }), config, now)).toBe('expired websocket jwt');
    expect(verifyJwt(sign({ exp: now + 60, nbf: now + 30 }), config, now)).toBeNull();
    expect(verifyJwt(sign({ exp: now + 60, nbf: now - 100 }), config, now)).toBeNull();
    expect(verifyJwt(sign({ exp: now + 60, nbf: 'soon' }), config, now)).toBe('invalid websocket jwt');
    expect(verifyJwt(sign({ exp: String(now + 60) }), config, now)).toBe('invalid websocket jwt');
  });

  it('checks iss and aud only when configured, and accepts matching ones', () => {
    expect(verifyJwt(sign({ exp: now + 60, iss: 'anyone', aud: 'anything' }), config, now)).toBeNull();
    const strict = { ...config, issuer: 'me', audience: 'tether' };
    expect(verifyJwt(sign({ exp: now + 60, iss: 'me', aud: 'tether' }), strict, now)).toBeNull();
    expect(verifyJwt(sign({ exp: now + 60, iss: 'me', aud: ['x'] }), strict, now)).toBe(
      'websocket jwt audience mismatch',
    );
  });

  it('is wired through the options and the Authorization header', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-jwt-'));
    try {
      const file = path.join(dir, 'secret');
      writeFileSync(file, 'too short\n');
      expect(() => parseServerOptions({ wsAuth: 'signed-bearer-token', wsSharedSecretFile: file })).toThrow(
        /at least 32 bytes/,
      );
      writeFileSync(file, `${secret.toString()}\n`);
      const options = parseServerOptions({ wsAuth: 'signed-bearer-token', wsSharedSecretFile: file });
      const token = sign({ exp: Math.floor(Date.now() / 1000) + 60 });
      expect(checkAuthorization(`Bearer ${token}`, options.auth)).toBeNull();
      expect(checkAuthorization('Bearer x.y.z', options.auth)).toBe('invalid websocket jwt');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
