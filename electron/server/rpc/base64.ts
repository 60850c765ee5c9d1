// Strict standard base64 (RFC 4648, padded) decoding: Node's decoder silently skips bad input,
// while the protocol rejects it with a message in the style of codex's decoder.

const ALPHABET = /[^A-Za-z0-9+/=]/;

/** Decodes `text`, or returns the reason it is not valid padded base64. */
export function decodeBase64Strict(
  text: string,
): { ok: true; bytes: Buffer } | { ok: false; reason: string } {
  // The hot path (file blocks, writes): Node's decoder skips what is not base64, so valid input is
  // exactly what decodes to the length its size promises. It also takes the URL-safe `-` and `_`,
  // which the protocol does not. Scanning with the regular expression first costs twice the decode.
  if (text.length % 4 === 0 && !text.includes('-') && !text.includes('_')) {
    const bytes = Buffer.from(text, 'base64');
    if (bytes.length === Buffer.byteLength(text, 'base64')) return { ok: true, bytes };
  }
  return explainBase64(text);
}

/** The slow, exact check, for input the fast path did not accept: says why, or decodes it. */
function explainBase64(text: string): { ok: true; bytes: Buffer } | { ok: false; reason: string } {
  const bad = ALPHABET.exec(text);
  if (bad) {
    return { ok: false, reason: `Invalid symbol ${bad[0].charCodeAt(0)}, offset ${bad.index}.` };
  }
  if (text.length % 4 !== 0) return { ok: false, reason: 'Invalid input length.' };
  const pad = text.indexOf('=');
  if (pad >= 0 && (pad < text.length - 2 || !/^=+$/.test(text.slice(pad)))) {
    return { ok: false, reason: `Invalid symbol 61, offset ${pad}.` };
  }
  return { ok: true, bytes: Buffer.from(text, 'base64') };
}
