import { describe, expect, it } from 'vitest';
import { decodeBase64Strict } from '../../../../electron/server/rpc/base64';
import { osErrorText, toFsRpcError } from '../../../../electron/server/fs/os-error';
import { pathToUri, uriToPath } from '../../../../electron/server/fs/path-uri';
import { RpcError } from '../../../../electron/server/rpc/rpc-error';

function rpcErrorOf(fn: () => unknown): RpcError {
  try {
    fn();
  } catch (error) {
    if (error instanceof RpcError) return error;
  }
  throw new Error('expected an RpcError');
}

describe('path URIs', () => {
  it('turns file URIs into paths and back', () => {
    expect(uriToPath('file:///tmp/a%20b/../c')).toBe('/tmp/c');
    expect(pathToUri('/tmp/a b')).toBe('file:///tmp/a%20b');
  });

  it('rejects relative paths and other schemes with codex messages', () => {
    expect(rpcErrorOf(() => uriToPath('/tmp/x'))).toMatchObject({
      code: -32602,
      message: 'invalid URI: relative URL without a base',
    });
    expect(rpcErrorOf(() => uriToPath('http://host/x'))).toMatchObject({
      code: -32602,
      message: 'unsupported path URI scheme `http`',
    });
  });
});

describe('OS errors', () => {
  it('uses strerror text with the errno', () => {
    expect(osErrorText('ENOTDIR')).toBe('Not a directory (os error 20)');
    expect(osErrorText('ENOTEMPTY')).toBe('Directory not empty (os error 39)');
  });

  it('maps ENOENT to -32004 and others to -32603', () => {
    expect(toFsRpcError(Object.assign(new Error('x'), { code: 'ENOENT' }))).toMatchObject({
      code: -32004,
      message: 'No such file or directory (os error 2)',
    });
    expect(toFsRpcError(Object.assign(new Error('x'), { code: 'EISDIR' }))).toMatchObject({
      code: -32603,
      message: 'Is a directory (os error 21)',
    });
  });
});

describe('strict base64', () => {
  it('decodes padded base64 and rejects bad symbols and lengths', () => {
    const ok = decodeBase64Strict('aGVsbG8K');
    expect(ok.ok && ok.bytes.toString()).toBe('hello\n');
    expect(decodeBase64Strict('!!!!')).toEqual({ ok: false, reason: 'Invalid symbol 33, offset 0.' });
    expect(decodeBase64Strict('abc')).toEqual({ ok: false, reason: 'Invalid input length.' });
    expect(decodeBase64Strict('a=bc').ok).toBe(false);
    expect(decodeBase64Strict('').ok).toBe(true);
  });
});
