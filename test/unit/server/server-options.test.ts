import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkAuthorization } from '../../../electron/server/listeners/auth';
import { isLoopback, parseListen, parseServerOptions } from '../../../electron/server/server-options';

describe('server options', () => {
  it('parses ws, wss and stdio listen URLs', () => {
    expect(parseListen('stdio')).toEqual({ kind: 'stdio' });
    expect(parseListen('stdio://')).toEqual({ kind: 'stdio' });
    expect(parseListen('ws://127.0.0.1:0')).toEqual({
      kind: 'ws',
      host: '127.0.0.1',
      port: 0,
      secure: false,
    });
    expect(parseListen('ws://[::1]:4000')).toEqual({ kind: 'ws', host: '::1', port: 4000, secure: false });
    expect(parseListen('wss://127.0.0.1:0')).toEqual({
      kind: 'ws',
      host: '127.0.0.1',
      port: 0,
      secure: true,
    });
    expect(() => parseListen('ws://localhost:0')).toThrow(/expected `ws:\/\/IP:PORT`/);
    expect(() => parseListen('http://127.0.0.1:0')).toThrow(/unsupported --listen URL/);
  });

  it('wants both TLS files with wss://, and none without', () => {
    // Auth is beside the point here (every ws listener needs a choice); the trial mode makes one.
    const trial = { wsAuth: 'none' } as const;
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-opts-'));
    try {
      const cert = path.join(dir, 'cert.pem');
      const key = path.join(dir, 'key.pem');
      writeFileSync(cert, 'CERT');
      writeFileSync(key, 'KEY');
      const options = parseServerOptions({
        ...trial,
        listen: 'wss://127.0.0.1:0',
        tlsCert: cert,
        tlsKey: key,
      });
      expect(options.tls?.cert.toString()).toBe('CERT');
      expect(options.tls?.key.toString()).toBe('KEY');
      expect(parseServerOptions({ ...trial, listen: 'ws://127.0.0.1:0' }).tls).toBeNull();
      expect(() => parseServerOptions({ ...trial, listen: 'wss://127.0.0.1:0', tlsCert: cert })).toThrow(
        /needs both `--tls-cert FILE` and `--tls-key FILE`/,
      );
      expect(() =>
        parseServerOptions({ ...trial, listen: 'ws://127.0.0.1:0', tlsCert: cert, tlsKey: key }),
      ).toThrow(/need a `wss:\/\/IP:PORT`/);
      expect(() =>
        parseServerOptions({
          ...trial,
          listen: 'wss://127.0.0.1:0',
          tlsCert: cert,
          tlsKey: path.join(dir, 'nope'),
        }),
      ).toThrow(/cannot read --tls-key/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('knows loopback addresses', () => {
    expect(isLoopback('127.0.0.2')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('0.0.0.0')).toBe(false);
  });

  it('refuses a ws listener without auth, and auth flags without --ws-auth', () => {
    expect(() => parseServerOptions({ listen: 'ws://0.0.0.0:0' })).toThrow(/without authentication/);
    expect(() => parseServerOptions({ listen: 'ws://127.0.0.1:0' })).toThrow(/--ws-token-file/);
    expect(() => parseServerOptions({})).toThrow(/without authentication/);
    expect(() => parseServerOptions({ listen: 'ws://0.0.0.0:0', wsAuth: 'none' })).toThrow(/non-loopback/);
    expect(() => parseServerOptions({ wsAuth: 'none', wsTokenFile: 'x' })).toThrow(/require `--ws-auth/);
    expect(parseServerOptions({ listen: 'ws://127.0.0.1:0', wsAuth: 'none' }).auth).toEqual({ kind: 'none' });
    expect(parseServerOptions({ listen: 'stdio' }).auth).toEqual({ kind: 'none' });
    expect(() => parseServerOptions({ wsTokenFile: 'x' })).toThrow(/require `--ws-auth/);
    expect(() => parseServerOptions({ wsAuth: 'capability-token' })).toThrow(/is required/);
    expect(() => parseServerOptions({ wsAuth: 'signed-bearer-token' })).toThrow(
      /--ws-shared-secret-file` is required/,
    );
    expect(() => parseServerOptions({ wsAuth: 'capability-token', wsTokenSha256: 'abc' })).toThrow(/64/);
  });

  it('reads a trimmed token file, rejects an empty one, and applies defaults', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-opts-'));
    try {
      const file = path.join(dir, 'token');
      writeFileSync(file, '  secret\n');
      const options = parseServerOptions({
        listen: 'ws://0.0.0.0:0',
        wsAuth: 'capability-token',
        wsTokenFile: file,
      });
      expect(options.auth).toEqual({
        kind: 'capabilityToken',
        tokenSha256: createHash('sha256').update('secret').digest(),
      });
      expect(options.sessionTtlMs).toBe(3 * 60 * 60 * 1000);
      expect(options.retainedOutputChunks).toBe(50_000);
      writeFileSync(file, ' \n');
      expect(() => parseServerOptions({ wsAuth: 'capability-token', wsTokenFile: file })).toThrow(/empty/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bearer token check', () => {
  const auth = { kind: 'capabilityToken' as const, tokenSha256: createHash('sha256').update('tok').digest() };

  it('accepts the token with any scheme case and surrounding spaces', () => {
    expect(checkAuthorization('Bearer tok', auth)).toBeNull();
    expect(checkAuthorization('bearer   tok  ', auth)).toBeNull();
    expect(checkAuthorization(undefined, { kind: 'none' })).toBeNull();
  });

  it('returns codex bodies for each failure', () => {
    expect(checkAuthorization(undefined, auth)).toBe('missing websocket bearer token');
    expect(checkAuthorization('Basic tok', auth)).toBe('invalid authorization header');
    expect(checkAuthorization('Bearertok', auth)).toBe('invalid authorization header');
    expect(checkAuthorization('Bearer  ', auth)).toBe('invalid authorization header');
    expect(checkAuthorization('Bearer nope', auth)).toBe('invalid websocket bearer token');
  });
});

describe('unix socket listeners', () => {
  it('take an absolute `unix:PATH` and need no token (the private directory is the check)', () => {
    expect(parseListen('unix:/run/user/1000/tether/a.sock')).toEqual({
      kind: 'unix',
      path: '/run/user/1000/tether/a.sock',
    });
    expect(() => parseListen('unix:relative.sock')).toThrow(/expected `unix:\/ABSOLUTE\/PATH`/);
    const options = parseServerOptions({ listen: 'unix:/tmp/x/a.sock' });
    expect(options.auth).toEqual({ kind: 'none' });
    expect(options.idleExitMs).toBeNull();
  });

  it('refuse token flags, and --idle-exit-ms is for unix listeners only', () => {
    expect(() =>
      parseServerOptions({
        listen: 'unix:/tmp/x/a.sock',
        wsAuth: 'capability-token',
        wsTokenSha256: 'a'.repeat(64),
      }),
    ).toThrow(/authenticated by its private directory/);
    expect(parseServerOptions({ listen: 'unix:/tmp/x/a.sock', idleExitMs: '500' }).idleExitMs).toBe(500);
    expect(() => parseServerOptions({ listen: 'stdio', idleExitMs: '500' })).toThrow(/needs a `unix:PATH`/);
    expect(() => parseServerOptions({ listen: 'unix:/tmp/x/a.sock', idleExitMs: '0' })).toThrow(
      /--idle-exit-ms must be a positive integer/,
    );
  });

  it('still refuse a ws listener without auth', () => {
    expect(() => parseServerOptions({ listen: 'ws://127.0.0.1:0' })).toThrow(/without authentication/);
  });
});
