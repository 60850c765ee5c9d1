import { describe, expect, it } from 'vitest';
import {
  decodeBytes,
  decodeText,
  encodeError,
  encodeResult,
  rawTopLevelId,
} from '../../../electron/server/envelope';

describe('envelope decoding', () => {
  it('keeps integer ids exactly, beyond 2^53, and echoes string ids as strings', () => {
    const big = decodeText('{"id":9007199254740993,"method":"environment/status"}');
    expect(big).toMatchObject({ kind: 'request', idJson: '9007199254740993' });
    expect(decodeText('{"id":-5,"method":"x"}')).toMatchObject({ idJson: '-5' });
    expect(decodeText('{"id":"a\\"b","method":"x"}')).toMatchObject({ idJson: '"a\\"b"' });
    expect(encodeResult('9007199254740993', { ok: true })).toBe(
      '{"id":9007199254740993,"result":{"ok":true}}',
    );
  });

  it('rejects float, null, out-of-range and boolean ids', () => {
    for (const id of ['1.0', '1e3', 'null', 'true', '9223372036854775808']) {
      expect(decodeText(`{"id":${id},"method":"x"}`).kind).toBe('invalid');
    }
    expect(decodeText('{"id":9223372036854775807,"method":"x"}').kind).toBe('request');
  });

  it('rejects bad JSON, batches, several values, deep nesting and invalid UTF-8', () => {
    expect(decodeText('not json').kind).toBe('invalid');
    expect(decodeText('[{"id":1,"method":"x"}]')).toEqual({
      kind: 'invalid',
      reason: 'expected a JSON-RPC object',
    });
    expect(decodeText('{"id":1,"method":"x"} {"id":2,"method":"x"}').kind).toBe('invalid');
    const deep = `{"id":1,"method":"x","params":${'['.repeat(200)}${']'.repeat(200)}}`;
    expect(decodeText(deep)).toEqual({ kind: 'invalid', reason: 'recursion limit exceeded' });
    expect(decodeBytes(Buffer.from([0x7b, 0xff, 0x7d])).kind).toBe('invalid');
  });

  it('classifies notifications and client responses, ignoring jsonrpc', () => {
    expect(decodeText('{"jsonrpc":"1.0","method":"initialized"}')).toEqual({
      kind: 'notification',
      method: 'initialized',
      params: undefined,
    });
    expect(decodeText('{"id":1,"result":{}}').kind).toBe('response');
    expect(decodeText('{"id":1,"error":{"code":1,"message":"x"}}').kind).toBe('response');
  });

  it('finds the top-level id past nested ids and strings with quotes', () => {
    expect(rawTopLevelId('{"params":{"id":5,"s":"\\"id\\":7"}, "id" : 12 }')).toBe('12');
    expect(rawTopLevelId('{"method":"x"}')).toBeUndefined();
  });

  it('encodes errors with data and without jsonrpc', () => {
    expect(encodeError('-1', -32600, 'bad')).toBe('{"error":{"code":-32600,"message":"bad"},"id":-1}');
    expect(JSON.parse(encodeError('"s"', -32603, 'm', { kind: 'spawnFailed' }))).toEqual({
      error: { code: -32603, data: { kind: 'spawnFailed' }, message: 'm' },
      id: 's',
    });
  });
});
