// The header rules of HTTP forwarding through codex's http/request: hop-by-hop headers (and the
// ones a Connection header names) stay on their hop, and a body codex decoded is relabelled.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  decodableCoding,
  headerPairs,
  requestHeadersToHost,
  responseHeadersToLocal,
} from '../../../../electron/client/forwarding/http-headers';

const names = (headers: Array<{ name: string }>): string[] => headers.map((h) => h.name);

describe('requestHeadersToHost', () => {
  it('keeps end-to-end headers in order with repeats, and drops hop-by-hop and framing ones', () => {
    const raw = [
      'Host',
      'localhost:5173',
      'Connection',
      'keep-alive, X-Hop',
      'Keep-Alive',
      'timeout=5',
      'X-Hop',
      'this hop only',
      'Proxy-Authorization',
      'Basic xyz',
      'TE',
      'trailers',
      'Trailer',
      'X-T',
      'Transfer-Encoding',
      'chunked',
      'Upgrade',
      'h2c',
      'Content-Length',
      '5',
      'Expect',
      '100-continue',
      'Cookie',
      'a=1',
      'cookie',
      'b=2',
    ];
    expect(requestHeadersToHost(headerPairs(raw))).toEqual([
      { name: 'Host', value: 'localhost:5173' },
      { name: 'Cookie', value: 'a=1' },
      { name: 'cookie', value: 'b=2' },
    ]);
  });
});

describe('responseHeadersToLocal', () => {
  const head = [
    { name: 'content-type', value: 'text/html' },
    { name: 'content-encoding', value: 'gzip' },
    { name: 'content-length', value: '42' },
    { name: 'connection', value: 'x-private' },
    { name: 'x-private', value: '1' },
    { name: 'keep-alive', value: 'timeout=5' },
    { name: 'set-cookie', value: 'a=1' },
    { name: 'set-cookie', value: 'b=2' },
  ];

  it('drops hop-by-hop headers and keeps repeats', () => {
    expect(names(responseHeadersToLocal(head))).toEqual([
      'content-type',
      'content-encoding',
      'content-length',
      'set-cookie',
      'set-cookie',
    ]);
  });

  it('relabels a body still said to be gzip whose bytes are not gzip: it was decoded', () => {
    const coding = decodableCoding(head);
    expect(coding).toBe('gzip');
    expect(names(responseHeadersToLocal(head, coding, Buffer.from('<html>')))).toEqual([
      'content-type',
      'set-cookie',
      'set-cookie',
    ]);
    // An empty body (or HEAD) has nothing encoded either.
    expect(names(responseHeadersToLocal(head, coding, null))).not.toContain('content-encoding');
  });

  it('keeps the labels of a body that still is gzip, and of codings codex leaves alone', () => {
    expect(names(responseHeadersToLocal(head, 'gzip', gzipSync('x')))).toContain('content-encoding');
    for (const value of ['br', 'deflate', 'gzip, br', 'identity']) {
      expect(decodableCoding([{ name: 'Content-Encoding', value }]), value).toBeNull();
    }
    expect(decodableCoding([{ name: 'Content-Encoding', value: 'ZSTD' }])).toBe('zstd');
  });
});
