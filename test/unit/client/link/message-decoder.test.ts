import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  frameText,
  JsonLimitError,
  parseDataFrame,
  parseFrame,
} from '../../../../electron/client/link/message-decoder';
import { MAX_JSON_DEPTH, writeDataFrame } from '../../../../shared/protocol';

const chunk = (bytes: number): string => randomBytes(bytes).toString('base64');
const frame = (text: string): Buffer => Buffer.from(text, 'utf8');
const sameAsJson = (text: string): void => {
  expect(parseFrame(frame(text))).toEqual(JSON.parse(text));
};

describe('parseFrame', () => {
  it('reads process/output frames as JSON.parse does, in tether and codex member order', () => {
    const data = chunk(48_000);
    sameAsJson(
      `{"method":"process/output","params":{"processId":"p1","seq":7,"stream":"stdout","chunk":"${data}"}}`,
    );
    sameAsJson(
      `{"method":"process/output","params":{"processId":"p1","seq":7,"chunk":"${data}","stream":"pty"},"jsonrpc":"2.0"}`,
    );
  });

  it('keeps processIds that contain quotes, backslashes, unicode or the chunk key itself', () => {
    for (const processId of ['say "hi"', 'a\\b', 'ünï 😀', '"chunk":"', 'x","chunk":"']) {
      sameAsJson(
        JSON.stringify({
          method: 'process/output',
          params: { processId, seq: 1, stream: 'stdout', chunk: chunk(4096) },
        }),
      );
    }
  });

  it('falls back for escapes or non-ASCII bytes in the chunk, and for other shapes', () => {
    sameAsJson(
      `{"method":"process/output","params":{"processId":"p","seq":1,"chunk":"${chunk(2000)}\\/AA"}}`,
    );
    sameAsJson(`{"method":"process/output","params":{"processId":"p","seq":1,"chunk":"${chunk(2000)}é"}}`);
    sameAsJson(
      `{"method":"process/output","params":{"processId":"p","seq":1,"chunk":"${chunk(2000)}","chunk":"x"}}`,
    );
    sameAsJson(
      `{"method":"process/output","params":{"processId":"p","seq":1,"meta":{"chunk":""},"chunk":"${chunk(2000)}"}}`,
    );
    sameAsJson(`{"method":"process/exited","params":{"processId":"p","seq":2,"exitCode":0}}`);
    sameAsJson(
      `{"id":3,"result":{"chunks":[{"seq":1,"stream":"stdout","chunk":"${chunk(3000)}"}],"nextSeq":2}}`,
    );
    sameAsJson(`{"method":"process/output","params":{"processId":"p","seq":1,"chunk":"aGk="}}`);
  });

  it('throws like JSON.parse on a frame that is not JSON, even one shaped like output', () => {
    const broken = `{"method":"process/output","params":{"processId":"p","seq":1,"chunk":"${chunk(2000)}"}`;
    expect(() => JSON.parse(broken)).toThrow(SyntaxError);
    expect(() => parseFrame(frame(broken))).toThrow(SyntaxError);
    expect(() => parseFrame(frame('not json'))).toThrow(SyntaxError);
  });

  it('agrees with JSON.parse on random output frames', () => {
    for (let i = 0; i < 200; i += 1) {
      const processId = randomBytes(1 + (i % 12)).toString(i % 3 === 0 ? 'latin1' : 'hex');
      const text = JSON.stringify({
        method: 'process/output',
        params: { processId, seq: i + 1, stream: i % 2 ? 'stderr' : 'stdout', chunk: chunk(700 + i * 37) },
      });
      sameAsJson(text);
    }
  });
});

describe('parseFrame fast path', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** The texts JSON.parse was given while parsing `input`, and the result. */
  const parseWatched = (input: Buffer | string): { texts: string[]; result: unknown } => {
    const parse = vi.spyOn(JSON, 'parse');
    const result = parseFrame(input);
    const texts = parse.mock.calls.map(([text]) => String(text));
    parse.mockRestore();
    return { texts, result };
  };

  it('never hands the chunk of a process/output frame to JSON.parse', () => {
    const data = chunk(6_000);
    for (const text of [
      `{"method":"process/output","params":{"processId":"p1","seq":7,"stream":"stdout","chunk":"${data}"}}`,
      `{"method":"process/output","params":{"processId":"p1","chunk":"${data}","seq":7,"stream":"pty"},"jsonrpc":"2.0"}`,
    ]) {
      const { texts, result } = parseWatched(frame(text));
      expect(result).toEqual(JSON.parse(text));
      expect(texts).toHaveLength(1);
      expect(texts[0]).not.toContain(data.slice(0, 64));
      expect(texts[0]!.length).toBe(text.length - data.length);
    }
  });

  it('parses other frames once, whole', () => {
    const data = chunk(6_000);
    for (const text of [
      `{"id":3,"result":{"chunks":[{"seq":1,"stream":"stdout","chunk":"${data}"}],"nextSeq":2}}`,
      `{"method":"process/output","params":{"processId":"p","seq":1,"chunk":"${data}\\/AA"}}`,
      `{"method":"process/output","params":{"processId":"p","seq":1,"chunk":"${data}é"}}`,
    ]) {
      const { texts, result } = parseWatched(frame(text));
      expect(result).toEqual(JSON.parse(text));
      expect(texts).toEqual([text]);
    }
  });

  it('parses text frames (WebSocket text messages) as they are', () => {
    const text = `{"method":"process/output","params":{"processId":"p","seq":1,"chunk":"${chunk(3_000)}"}}`;
    const { texts, result } = parseWatched(text);
    expect(result).toEqual(JSON.parse(text));
    expect(texts).toEqual([text]);
  });
});

describe('frameText', () => {
  it('gives the text of a string or a UTF-8 buffer', () => {
    expect(frameText('{"a":"é"}')).toBe('{"a":"é"}');
    expect(frameText(Buffer.from('{"a":"é"}'))).toBe('{"a":"é"}');
  });
});

describe('the protocol limits on what a server sends', () => {
  const deep = (depth: number): string => `{"method":"x","params":${'['.repeat(depth)}0${']'.repeat(depth)}}`;

  it('refuses JSON text nested past MAX_JSON_DEPTH, and allows it up to there', () => {
    expect(() => parseFrame(frame(deep(MAX_JSON_DEPTH - 1)))).not.toThrow();
    expect(() => parseFrame(frame(deep(MAX_JSON_DEPTH)))).toThrow(JsonLimitError);
    expect(() => parseFrame(deep(20_000))).toThrow(/recursion limit exceeded/);
  });

  it('refuses a data frame header nested past MAX_JSON_DEPTH before resolving it', () => {
    const result = parseDataFrame(Buffer.from(writeDataFrame(deep(20_000), [])));
    expect(result).toEqual({ ok: false, reason: 'its header is refused: recursion limit exceeded' });
  });
});
