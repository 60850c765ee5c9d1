// decodeBase64Strict at its edges: where padding may stand, how much of it, and the codex-style
// reasons for what it refuses.
import { describe, expect, it } from 'vitest';
import { decodeBase64Strict } from '../../../../electron/server/rpc/base64';

const decoded = (text: string): string | null => {
  const result = decodeBase64Strict(text);
  return result.ok ? result.bytes.toString('latin1') : null;
};

describe('decodeBase64Strict', () => {
  it('decodes unpadded, one-pad and two-pad input', () => {
    expect(decoded('YWJj')).toBe('abc');
    expect(decoded('YWI=')).toBe('ab');
    expect(decoded('YQ==')).toBe('a');
    expect(decoded('YWJjYQ==')).toBe('abca');
    expect(decoded('+/+/')).toBe('\xfb\xff\xbf');
  });

  it('refuses padding anywhere but the last two places', () => {
    expect(decodeBase64Strict('=AAA')).toEqual({ ok: false, reason: 'Invalid symbol 61, offset 0.' });
    expect(decodeBase64Strict('Y===')).toEqual({ ok: false, reason: 'Invalid symbol 61, offset 1.' });
    expect(decodeBase64Strict('YWJj=AAA')).toEqual({ ok: false, reason: 'Invalid symbol 61, offset 4.' });
  });

  it('refuses data after padding', () => {
    expect(decodeBase64Strict('YQ=A')).toEqual({ ok: false, reason: 'Invalid symbol 61, offset 2.' });
    expect(decodeBase64Strict('YWJjYQ=A')).toEqual({ ok: false, reason: 'Invalid symbol 61, offset 6.' });
  });

  it('names the first symbol outside the alphabet, and wrong lengths', () => {
    expect(decodeBase64Strict('YW-j')).toEqual({ ok: false, reason: 'Invalid symbol 45, offset 2.' });
    // Node's decoder takes the URL-safe alphabet and skips spaces; the protocol does not.
    expect(decodeBase64Strict('YW_j')).toEqual({ ok: false, reason: 'Invalid symbol 95, offset 2.' });
    expect(decodeBase64Strict('YW j')).toEqual({ ok: false, reason: 'Invalid symbol 32, offset 2.' });
    expect(decodeBase64Strict('YWJj YWJj')).toEqual({ ok: false, reason: 'Invalid symbol 32, offset 4.' });
    expect(decodeBase64Strict('YWJj\n')).toEqual({ ok: false, reason: 'Invalid symbol 10, offset 4.' });
    expect(decodeBase64Strict('YWJjY')).toEqual({ ok: false, reason: 'Invalid input length.' });
  });
});
