import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseFrame } from '../../../electron/client/message-decoder';

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
