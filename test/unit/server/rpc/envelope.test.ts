import { describe, expect, it } from 'vitest';
import {
  decodeBytes,
  decodeText,
  encodeError,
  encodeResult,
  rawTopLevelId,
} from '../../../../electron/server/rpc/envelope';
import { MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../../../../electron/server/limits';

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

describe('envelope decoding, edge by edge', () => {
  it('decodes valid UTF-8 bytes and names invalid ones', () => {
    expect(decodeBytes(Buffer.from('{"id":1,"method":"é"}'))).toEqual({
      kind: 'request',
      idJson: '1',
      method: 'é',
      params: undefined,
    });
    expect(decodeBytes(Buffer.from([0x7b, 0xff, 0x7d]))).toEqual({
      kind: 'invalid',
      reason: 'invalid UTF-8 in message',
    });
  });

  it("gives JSON.parse's reason for text that is not JSON", () => {
    let expected = '';
    try {
      JSON.parse('{"id":');
    } catch (error) {
      expected = (error as Error).message;
    }
    expect(expected).not.toBe('');
    expect(decodeText('{"id":')).toEqual({ kind: 'invalid', reason: expected });
  });

  it('wants a JSON object at the top', () => {
    for (const text of ['null', '5', '"s"', 'true', '[]']) {
      expect(decodeText(text)).toEqual({ kind: 'invalid', reason: 'expected a JSON-RPC object' });
    }
  });

  it('says why an id is refused, and what matches no variant', () => {
    expect(decodeText('{"id":1.5,"method":"x"}')).toEqual({
      kind: 'invalid',
      reason: 'invalid request id: expected an i64 integer or a string',
    });
    expect(decodeText('{"id":1,"other":{}}')).toEqual({
      kind: 'invalid',
      reason: 'data did not match any variant of JSON-RPC message',
    });
    expect(decodeText('{"method":7}')).toEqual({
      kind: 'invalid',
      reason: 'data did not match any variant of JSON-RPC message',
    });
  });

  it('accepts exactly the i64 range', () => {
    expect(decodeText('{"id":-9223372036854775808,"method":"x"}')).toMatchObject({
      kind: 'request',
      idJson: '-9223372036854775808',
    });
    expect(decodeText('{"id":-9223372036854775809,"method":"x"}').kind).toBe('invalid');
    expect(decodeText('{"id":0,"method":"x"}')).toMatchObject({ kind: 'request', idJson: '0' });
    expect(decodeText('{"id":01,"method":"x"}').kind).toBe('invalid');
  });

  it('allows exactly MAX_JSON_VALUES values and refuses one more', () => {
    // The object, its id, method and params members, then the array elements.
    const message = (elements: number): string =>
      `{"id":1,"method":"x","params":[${new Array(elements).fill(0).join(',')}]}`;
    expect(decodeText(message(MAX_JSON_VALUES - 4)).kind).toBe('request');
    expect(decodeText(message(MAX_JSON_VALUES - 3))).toEqual({
      kind: 'invalid',
      reason: `JSON-RPC message exceeds the limit of ${MAX_JSON_VALUES} JSON values`,
    });
  });

  it('allows nesting to exactly MAX_JSON_DEPTH and refuses one level more', () => {
    // The message object is level 1; `levels` nested arrays go below it.
    const nested = (levels: number): string =>
      `{"id":1,"method":"x","params":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    expect(decodeText(nested(MAX_JSON_DEPTH - 1)).kind).toBe('request');
    expect(decodeText(nested(MAX_JSON_DEPTH))).toEqual({
      kind: 'invalid',
      reason: 'recursion limit exceeded',
    });
  });
});

describe('rawTopLevelId', () => {
  it('reads the id through any JSON whitespace', () => {
    expect(rawTopLevelId(' \t\r\n{ \t\r\n"id" \t\r\n: \t\r\n42 \t\r\n, "x" : 1 }')).toBe('42');
    expect(rawTopLevelId('{"a":1,\n\t"id":7}')).toBe('7');
  });

  it('is undefined for anything but an object', () => {
    expect(rawTopLevelId('[{"id":1}]')).toBeUndefined();
    expect(rawTopLevelId('"id"')).toBeUndefined();
  });

  it('skips nested objects, arrays and strings holding brackets, quotes and backslashes', () => {
    expect(rawTopLevelId('{"p":{"a":"}]","b":[1,{"id":9}],"c":{}},"id":2}')).toBe('2');
    expect(rawTopLevelId('{"p":[[],{"id":[3]},"]"],"id":-4}')).toBe('-4');
    expect(rawTopLevelId('{"s":"ends in a backslash\\\\","id":5}')).toBe('5');
    expect(rawTopLevelId('{"s":"a \\\\\\" quote","id":6}')).toBe('6');
    expect(rawTopLevelId('{"s\\\\":1,"id":8}')).toBe('8');
  });

  it('skips top-level string values that hold commas and braces', () => {
    expect(rawTopLevelId('{"method":"a,b}","id":9}')).toBe('9');
    expect(decodeText('{"method":"x,y","id":10}')).toMatchObject({ kind: 'request', idJson: '10' });
  });

  it('skips literal values and takes the last id', () => {
    expect(rawTopLevelId('{"a":true,"b":null,"id":1,"c":-2.5e3,"id":3}')).toBe('3');
    expect(rawTopLevelId('{"id":"x","z":false}')).toBe('"x"');
  });
});

describe('envelope encoding', () => {
  it('encodes a result of undefined as an empty object', () => {
    expect(encodeResult('1', undefined)).toBe('{"id":1,"result":{}}');
  });

  it('leaves out data when there is none', () => {
    expect(JSON.parse(encodeError('1', -32600, 'bad'))).toEqual({
      error: { code: -32600, message: 'bad' },
      id: 1,
    });
    expect(encodeError('1', -32600, 'bad', null)).toBe(
      '{"error":{"code":-32600,"data":null,"message":"bad"},"id":1}',
    );
  });
});
