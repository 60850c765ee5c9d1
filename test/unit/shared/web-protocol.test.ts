// The web host's message codec: a message holding bytes goes as one binary message (JSON header,
// raw tail) and comes back with the same bytes, Buffers included; a message without bytes stays
// JSON text; malformed binary messages are refused, never half-read.
import { describe, expect, it } from 'vitest';
import { decodeWebMessage, encodeWebMessage } from '../../../shared/ipc/web-protocol';

const EVERY_BYTE = Uint8Array.from({ length: 256 }, (_, i) => i);

describe('encodeWebMessage / decodeWebMessage', () => {
  it('keeps a message without bytes as JSON text', () => {
    const message = { type: 'result', id: 3, ok: true, output: { ok: true } };
    const encoded = encodeWebMessage(message);
    expect(typeof encoded).toBe('string');
    expect(decodeWebMessage(encoded)).toEqual(message);
  });

  it('carries every byte value raw, in one binary message, with the rest of the message', () => {
    const message = {
      type: 'event',
      name: 'processes.events',
      payload: [
        {
          envId: 'e',
          processId: 'p',
          events: [
            { kind: 'output', seq: 1, stream: 'pty', data: EVERY_BYTE },
            { kind: 'exited', seq: 2, exitCode: 0 },
            { kind: 'output', seq: 3, stream: 'stderr', data: Buffer.from([0xe2, 0x82]) },
          ],
        },
      ],
    };
    const encoded = encodeWebMessage(message);
    expect(encoded).toBeInstanceOf(Uint8Array);
    // No base64: the bytes are in the message as they are.
    expect((encoded as Uint8Array).byteLength).toBeLessThan(256 + 2 + 400);
    const decoded = decodeWebMessage(encoded) as typeof message;
    const [first, exited, second] = decoded.payload[0]!.events;
    expect(first!.data).toEqual(EVERY_BYTE);
    expect(exited).toEqual({ kind: 'exited', seq: 2, exitCode: 0 });
    expect(Buffer.from(second!.data!).equals(Buffer.from([0xe2, 0x82]))).toBe(true);
  });

  it('refuses binary messages it cannot read whole', () => {
    const good = encodeWebMessage({ data: Uint8Array.of(1, 2, 3) }) as Uint8Array;
    expect(() => decodeWebMessage(Uint8Array.of(0, 0))).toThrow(/shorter/);
    expect(() => decodeWebMessage(good.subarray(0, 6))).toThrow(/past its end/);
    const header = new TextEncoder().encode('{"data":{"\\u0000bytes":[2,5]}}');
    const forged = new Uint8Array(4 + header.byteLength + 3);
    new DataView(forged.buffer).setUint32(0, header.byteLength);
    forged.set(header, 4);
    expect(() => decodeWebMessage(forged)).toThrow(/malformed byte field/);
  });
});
