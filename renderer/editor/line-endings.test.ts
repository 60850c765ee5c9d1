// Line breaks the editor writes back: the file's own, or its most common one when it mixes them.
import { describe, expect, it } from 'vitest';
import { lineEndingsOf } from './line-endings';

describe('lineEndingsOf', () => {
  it('tells LF, CRLF and CR files apart', () => {
    expect(lineEndingsOf('a\nb\n')).toEqual({ separator: '\n', mixed: false });
    expect(lineEndingsOf('a\r\nb\r\n')).toEqual({ separator: '\r\n', mixed: false });
    expect(lineEndingsOf('a\rb\r')).toEqual({ separator: '\r', mixed: false });
    expect(lineEndingsOf('no break')).toEqual({ separator: '\n', mixed: false });
  });

  it('takes the most common break of a mixed file and says it is mixed', () => {
    expect(lineEndingsOf('a\r\nb\r\nc\n')).toEqual({ separator: '\r\n', mixed: true });
    expect(lineEndingsOf('a\r\nb\nc\n')).toEqual({ separator: '\n', mixed: true });
  });
});
