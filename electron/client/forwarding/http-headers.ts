// The header rules of forwarding HTTP through codex's `http/request`: hop-by-hop headers stay on
// their own hop (both ways), and a body the server decompressed is labelled as what it now is.
import type { HttpHeader } from '../../../shared/protocol';

/** Hop-by-hop headers (RFC 9110 7.6.1), plus the proxy ones: they describe one connection only. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Request headers that are this hop's business too: the server frames the body it is given whole
 * (its own Content-Length), and Node already answered any Expect: 100-continue here.
 */
const REQUEST_ONLY = new Set(['content-length', 'expect']);

/** The names a Connection header lists, which are hop-by-hop for that message too. */
function connectionListed(headers: HttpHeader[]): Set<string> {
  const listed = new Set<string>();
  for (const { name, value } of headers) {
    if (name.toLowerCase() !== 'connection') continue;
    for (const token of value.split(',')) {
      const trimmed = token.trim().toLowerCase();
      if (trimmed) listed.add(trimmed);
    }
  }
  return listed;
}

function endToEnd(headers: HttpHeader[], alsoDrop: Set<string>): HttpHeader[] {
  const listed = connectionListed(headers);
  return headers.filter(({ name }) => {
    const lower = name.toLowerCase();
    return (
      !HOP_BY_HOP.has(lower) && !lower.startsWith('proxy-') && !listed.has(lower) && !alsoDrop.has(lower)
    );
  });
}

/** `rawHeaders` of a Node request (name, value, name, value…) as pairs. */
export function headerPairs(raw: string[]): HttpHeader[] {
  const pairs: HttpHeader[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push({ name: raw[i]!, value: raw[i + 1]! });
  return pairs;
}

/** The headers of a local request as they go to the host, in order and repeats kept. */
export function requestHeadersToHost(headers: HttpHeader[]): HttpHeader[] {
  return endToEnd(headers, REQUEST_ONLY);
}

/** The first bytes of a body in each coding codex 0.171.0 decodes by itself (reqwest's gzip, zstd). */
const DECODED_CODINGS: Record<string, Buffer> = {
  gzip: Buffer.from([0x1f, 0x8b]),
  'x-gzip': Buffer.from([0x1f, 0x8b]),
  zstd: Buffer.from([0x28, 0xb5, 0x2f, 0xfd]),
};

/** The response's single Content-Encoding, lower-cased, when it is one codex may have decoded. */
export function decodableCoding(headers: HttpHeader[]): string | null {
  const codings = headers
    .filter(({ name }) => name.toLowerCase() === 'content-encoding')
    .flatMap(({ value }) => value.split(','))
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  return codings.length === 1 && codings[0]! in DECODED_CODINGS ? codings[0]! : null;
}

/**
 * The headers of a response as the local client gets them. codex decompresses gzip and zstd bodies
 * by itself; 0.171.0 then drops Content-Encoding and Content-Length too, but a body that still
 * says `coding` while `firstBytes` are not that coding's was decompressed all the same: it is
 * relabelled (no Content-Encoding, and no Content-Length, which counted the compressed bytes), so
 * the browser neither decodes it twice nor waits for bytes that never come.
 */
export function responseHeadersToLocal(
  headers: HttpHeader[],
  coding: string | null = null,
  firstBytes: Buffer | null = null,
): HttpHeader[] {
  const kept = endToEnd(headers, new Set());
  if (coding === null) return kept;
  const magic = DECODED_CODINGS[coding]!;
  const stillEncoded =
    firstBytes !== null &&
    firstBytes.length >= magic.length &&
    firstBytes.subarray(0, magic.length).equals(magic);
  if (stillEncoded) return kept;
  return kept.filter(({ name }) => !['content-encoding', 'content-length'].includes(name.toLowerCase()));
}
