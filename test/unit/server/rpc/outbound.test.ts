// How a result leaves, per connection: one serialisation whatever the connection, JSON text when it
// holds no bytes even where binary frames were agreed, a data frame when it does.
import { describe, expect, it } from 'vitest';
import { toWire } from '../../../../electron/server/rpc/outbound';
import { isDataFrame } from '../../../../shared/protocol';

/** A result that counts how often it is serialised (JSON.stringify calls toJSON once per walk). */
function countingResult(): { result: object; walks: () => number } {
  let walks = 0;
  return {
    result: {
      toJSON() {
        walks++;
        return { status: 'ready' };
      },
    },
    walks: () => walks,
  };
}

describe('outbound results', () => {
  it.each([false, true])('a result without bytes is serialised once (binary frames %s)', (binaryFrames) => {
    const { result, walks } = countingResult();
    const wire = toWire({ kind: 'result', idJson: '7', result }, binaryFrames);
    expect(wire).toEqual({ text: '{"id":7,"result":{"status":"ready"}}' });
    expect(walks()).toBe(1);
  });

  it('a result with bytes is a data frame where agreed, base64 JSON elsewhere', () => {
    const result = { chunk: Buffer.from([0, 1, 255]), eof: true };
    const framed = toWire({ kind: 'result', idJson: '1', result }, true);
    expect('dataFrame' in framed && isDataFrame(framed.dataFrame)).toBe(true);
    expect(toWire({ kind: 'result', idJson: '1', result }, false)).toEqual({
      text: '{"id":1,"result":{"chunk":"AAH/","eof":true}}',
    });
  });
});
