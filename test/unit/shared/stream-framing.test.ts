// The byte-stream framing (stdio, unix socket, SSH bridge): JSON lines until the first frame, then
// frames only, whatever the chunk boundaries; a frame before the agreement, garbage where a frame
// must begin and a length above the bound each break the stream with a reason.
import { describe, expect, it } from 'vitest';
import {
  encodeDataFrame,
  STREAM_FRAME_DATA,
  STREAM_FRAME_TEXT,
  StreamDecoder,
  streamFramePrefix,
  type StreamMessageKind,
} from '../../../shared/protocol';

interface Seen {
  messages: Array<{ kind: StreamMessageKind; text: string }>;
  tooLong: number;
  broken: string[];
}

/** A decoder that switches to frames after a line that agrees to them, as the client's does. */
function decoder(maxBytes = 1_000_000): { decoder: StreamDecoder; seen: Seen } {
  const seen: Seen = { messages: [], tooLong: 0, broken: [] };
  const d: StreamDecoder = new StreamDecoder(maxBytes, {
    message: (kind, bytes) => {
      const text = Buffer.from(bytes).toString('latin1');
      seen.messages.push({ kind, text });
      if (kind === 'line' && text.includes('"tetherBinaryFrames":true')) d.allowFrames();
    },
    lineTooLong: () => seen.tooLong++,
    broken: (reason) => seen.broken.push(reason),
  });
  return { decoder: d, seen };
}

function frame(kind: number, body: Uint8Array | string): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
  return Buffer.concat([streamFramePrefix(kind, bytes.length), bytes]);
}

/** A handshake line, then text and data frames: what a server sends after agreeing. */
function stream(): { bytes: Buffer; expected: Seen['messages'] } {
  const data = encodeDataFrame({
    method: 'process/output',
    params: { chunk: Buffer.from([0, 10, 13, 255]) },
  })!;
  const bytes = Buffer.concat([
    Buffer.from('\n{"method":"early"}\n \r\n{"id":1,"result":{"tetherBinaryFrames":true}}\r\n'),
    frame(STREAM_FRAME_TEXT, '{"method":"a"}'),
    frame(STREAM_FRAME_DATA, data),
    frame(STREAM_FRAME_TEXT, ''),
    frame(STREAM_FRAME_TEXT, '{"id":2,"result":{}}'),
  ]);
  return {
    bytes,
    expected: [
      { kind: 'line', text: '{"method":"early"}' },
      { kind: 'line', text: '{"id":1,"result":{"tetherBinaryFrames":true}}' },
      { kind: 'text', text: '{"method":"a"}' },
      { kind: 'dataFrame', text: Buffer.from(data).toString('latin1') },
      { kind: 'text', text: '' },
      { kind: 'text', text: '{"id":2,"result":{}}' },
    ],
  };
}

describe('stream framing', () => {
  it('reads lines and then frames from one chunk, from 1-byte chunks and from every split in two', () => {
    const { bytes, expected } = stream();
    const whole = decoder();
    whole.decoder.push(bytes);
    expect(whole.seen).toEqual({ messages: expected, tooLong: 0, broken: [] });

    const bytewise = decoder();
    for (let i = 0; i < bytes.length; i++) bytewise.decoder.push(bytes.subarray(i, i + 1));
    expect(bytewise.seen).toEqual({ messages: expected, tooLong: 0, broken: [] });

    for (let cut = 1; cut < bytes.length; cut++) {
      const split = decoder();
      split.decoder.push(bytes.subarray(0, cut));
      split.decoder.push(bytes.subarray(cut));
      expect(split.seen.messages, `cut at ${cut}`).toEqual(expected);
    }
  });

  it('a frame before the agreement breaks the stream, lines before it are delivered', () => {
    const { decoder: d, seen } = decoder();
    d.push(
      Buffer.concat([Buffer.from('{"a":1}\n'), frame(STREAM_FRAME_TEXT, '{}'), Buffer.from('{"b":2}\n')]),
    );
    expect(seen.messages).toEqual([{ kind: 'line', text: '{"a":1}' }]);
    expect(seen.broken).toEqual(['a framed message (kind 0xf5) before tetherBinaryFrames was agreed']);
  });

  it('garbage after the handshake breaks the stream once, and nothing after it is delivered', () => {
    const { decoder: d, seen } = decoder();
    d.push(Buffer.from('{"result":{"tetherBinaryFrames":true}}\n{"a":1}\n'));
    d.push(frame(STREAM_FRAME_TEXT, '{"late":1}'));
    expect(seen.messages).toEqual([{ kind: 'line', text: '{"result":{"tetherBinaryFrames":true}}' }]);
    expect(seen.broken).toEqual([
      'byte 0x7b where a frame must begin (the stream is framed after the handshake)',
    ]);
    expect(d.isBroken).toBe(true);
  });

  it('refuses a frame length above the bound before reading its body', () => {
    const { decoder: d, seen } = decoder(1000);
    d.allowFrames();
    d.push(streamFramePrefix(STREAM_FRAME_DATA, 0xffffffff));
    expect(seen.broken).toEqual(['a frame of 4294967295 bytes, above the limit of 1000']);
    const exact = decoder(1000);
    exact.decoder.allowFrames();
    exact.decoder.push(frame(STREAM_FRAME_TEXT, 'x'.repeat(1000)));
    expect(exact.seen.messages).toHaveLength(1);
  });

  it('drops an overlong line up to its newline and reads on', () => {
    const { decoder: d, seen } = decoder(10);
    d.push(Buffer.from('{"long":"'));
    d.push(Buffer.from('xxxxxxxxxxxxxxxx'));
    d.push(Buffer.from('"}\n{"b":2}\n'));
    expect(seen.tooLong).toBe(1);
    expect(seen.messages).toEqual([{ kind: 'line', text: '{"b":2}' }]);
  });

  describe('with a reused read buffer', () => {
    /** Every delivered message as given (not copied), to be read only after the stream is done. */
    function keepingDecoder(): {
      decoder: StreamDecoder;
      kept: Array<{ kind: StreamMessageKind; bytes: Uint8Array }>;
    } {
      const kept: Array<{ kind: StreamMessageKind; bytes: Uint8Array }> = [];
      const d: StreamDecoder = new StreamDecoder(
        1_000_000,
        {
          message: (kind, bytes) => {
            kept.push({ kind, bytes });
            if (kind === 'line' && Buffer.from(bytes).includes('"tetherBinaryFrames":true')) d.allowFrames();
          },
          lineTooLong: () => undefined,
          broken: (reason) => {
            throw new Error(reason);
          },
        },
        undefined,
        { chunksReused: true },
      );
      return { decoder: d, kept };
    }

    const texts = (kept: Array<{ kind: StreamMessageKind; bytes: Uint8Array }>): Seen['messages'] =>
      kept.map(({ kind, bytes }) => ({ kind, text: Buffer.from(bytes).toString('latin1') }));

    /**
     * Reads `bytes` as the stdio transport does: each read goes where readTarget() says, else into
     * one buffer of `bufferBytes`, at most `readBytes` at a time; that buffer is scribbled over
     * after each push, as the next read would.
     */
    function readThrough(bytes: Buffer, bufferBytes: number, readBytes: number): Seen['messages'] {
      const { decoder: d, kept } = keepingDecoder();
      const buffer = new Uint8Array(bufferBytes);
      let at = 0;
      while (at < bytes.length) {
        const target = d.readTarget() ?? buffer;
        const n = Math.min(target.length, readBytes, bytes.length - at);
        target.set(bytes.subarray(at, at + n));
        at += n;
        if (target === buffer) {
          d.push(buffer.subarray(0, n));
          buffer.fill(0xee);
        } else d.filledTarget(n);
      }
      expect(d.readTarget()).toBeNull();
      return texts(kept);
    }

    /** Frames whose bodies are larger than the read buffer, back to back, between small ones. */
    function bigStream(): { bytes: Buffer; expected: Seen['messages'] } {
      const { bytes: start, expected } = stream();
      const bodies = [
        Buffer.alloc(90, 0x61),
        Buffer.from(Array.from({ length: 257 }, (_, i) => i & 0xff)),
        Buffer.from('{"x":1}'),
        Buffer.alloc(130, 0x7a),
      ];
      return {
        bytes: Buffer.concat([start, ...bodies.map((body) => frame(STREAM_FRAME_DATA, body))]),
        expected: [
          ...expected,
          ...bodies.map((body) => ({ kind: 'dataFrame' as const, text: body.toString('latin1') })),
        ],
      };
    }

    it('delivers every message intact whatever the read sizes, bodies larger than the buffer included', () => {
      const { bytes, expected } = bigStream();
      for (const bufferBytes of [1, 5, 6, 64]) {
        for (const readBytes of [1, 2, 3, 4, 5, 6, 7, 11, 63, 64, 65, 200]) {
          expect(
            readThrough(bytes, bufferBytes, readBytes),
            `buffer ${bufferBytes}, reads of ${readBytes}`,
          ).toEqual(expected);
        }
      }
      // One read takes everything the buffer holds: several frames back to back in one push.
      expect(readThrough(bytes, bytes.length, bytes.length)).toEqual(expected);
    });

    it('copies out what it keeps when the chunk is reused, at every split in two', () => {
      const { bytes, expected } = bigStream();
      for (let cut = 1; cut < bytes.length; cut++) {
        const { decoder: d, kept } = keepingDecoder();
        for (const part of [bytes.subarray(0, cut), bytes.subarray(cut)]) {
          const chunk = Buffer.from(part);
          d.push(chunk);
          chunk.fill(0xee);
        }
        expect(texts(kept), `cut at ${cut}`).toEqual(expected);
      }
    });

    it('lends only the rest of the body being gathered, and refuses a fill past it', () => {
      const { decoder: d, kept } = keepingDecoder();
      d.allowFrames();
      expect(d.readTarget()).toBeNull();
      const whole = frame(STREAM_FRAME_TEXT, 'abcdefgh');
      d.push(whole.subarray(0, 7));
      expect(d.readTarget()?.length).toBe(6);
      expect(() => d.filledTarget(7)).toThrow(RangeError);
      d.readTarget()!.set(Buffer.from('cdefgh'));
      d.filledTarget(6);
      expect(texts(kept)).toEqual([{ kind: 'text', text: 'abcdefgh' }]);
      expect(d.readTarget()).toBeNull();
    });
  });

  it('without reuse, a body whole in one chunk is a view of it (no copy)', () => {
    const d = new StreamDecoder(1000, {
      message: (_kind, bytes) => views.push(bytes),
      lineTooLong: () => undefined,
      broken: () => undefined,
    });
    const views: Uint8Array[] = [];
    d.allowFrames();
    const chunk = Buffer.concat([frame(STREAM_FRAME_TEXT, 'one'), frame(STREAM_FRAME_TEXT, 'two')]);
    d.push(chunk);
    expect(views.map((v) => v.buffer === chunk.buffer)).toEqual([true, true]);
  });
});
