import { describe, expect, it } from 'vitest';
import {
  encodeDataFrame,
  resolvePayloadRefs,
  splitDataFrame,
  stringifyWithBytes,
} from '../../../shared/protocol';

function decode(frame: Uint8Array): unknown {
  const split = splitDataFrame(frame);
  if (!split.ok) throw new Error(split.reason);
  const resolved = resolvePayloadRefs(JSON.parse(split.value.headerText), split.value.payload);
  if (!resolved.ok) throw new Error(resolved.reason);
  return resolved.value;
}

describe('data frames', () => {
  it('round-trips several byte fields, empty ones and views into larger buffers', () => {
    const backing = Buffer.from('0123456789abcdef');
    const message = {
      id: 3,
      result: {
        chunks: [
          { seq: 1, chunk: backing.subarray(2, 5) },
          { seq: 2, chunk: new Uint8Array(0) },
          { seq: 3, chunk: Buffer.from([0, 255, 10, 13]) },
        ],
        note: 'ünïcode',
      },
    };
    const frame = encodeDataFrame(message)!;
    const decoded = decode(frame) as typeof message;
    expect(decoded.result.note).toBe('ünïcode');
    expect(decoded.result.chunks.map((c) => Buffer.from(c.chunk).toString('hex'))).toEqual([
      Buffer.from('234').toString('hex'),
      '',
      '00ff0a0d',
    ]);
  });

  it('is not used for a message without bytes, and base64 is what JSON mode writes', () => {
    expect(encodeDataFrame({ id: 1, result: { status: 'ready' } })).toBeNull();
    expect(stringifyWithBytes({ chunk: Buffer.from('hi') }, (b) => Buffer.from(b).toString('base64'))).toBe(
      '{"chunk":"aGk="}',
    );
  });

  it('refuses frames whose references do not tile the payload', () => {
    const payload = new Uint8Array(4);
    const cases: Array<[unknown, RegExp]> = [
      [{ a: { payloadRef: [0, 2] }, b: { payloadRef: [1, 3] } }, /overlap/],
      [{ a: { payloadRef: [1, 3] } }, /bytes 0..1 are referenced by nothing/],
      [{ a: { payloadRef: [0, 5] } }, /past the end/],
      [{ a: { payloadRef: [0, 4], extra: 1 } }, /malformed payload reference/],
      [{ a: { payloadRef: [0.5, 3] } }, /malformed payload reference/],
    ];
    for (const [header, reason] of cases) {
      const result = resolvePayloadRefs(header, payload);
      expect(result.ok).toBe(false);
      expect(result.ok ? '' : result.reason).toMatch(reason);
    }
  });

  it("resolves references at any depth without recursion (the header is the peer's to shape)", () => {
    const depth = 100_000;
    const header = JSON.parse('['.repeat(depth) + '{"payloadRef":[0,2]}' + ']'.repeat(depth)) as unknown;
    const result = resolvePayloadRefs(header, Uint8Array.from([1, 2]));
    expect(result.ok).toBe(true);
    let node = result.ok ? result.value : null;
    for (let i = 0; i < depth; i++) node = (node as unknown[])[0];
    expect(node).toEqual(Uint8Array.from([1, 2]));
  });
});
