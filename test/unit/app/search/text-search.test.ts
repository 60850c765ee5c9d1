// Find in files' parsing of rg --json and grep --null output (names with newlines and colons,
// records split across chunks, byte offsets of non-ASCII lines), its argv and its long-line cut.
import { describe, expect, it } from 'vitest';
import {
  cutLine,
  GrepNullParser,
  rangeFinder,
  RgJsonParser,
  searchArgv,
  type SearchQuery,
} from '../../../../electron/app/search/text-search';
import { NulSeparatedPaths } from '../../../../electron/app/search/file-listing';

const HOSTILE = 'we:ird\nname.txt';
const query = (over: Partial<SearchQuery> = {}): SearchQuery => ({
  query: 'needle',
  caseSensitive: false,
  regex: false,
  wholeWord: false,
  include: '',
  ...over,
});
const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds `data` in chunks of `size` bytes, as a process's output may arrive. */
function feed<T>(parser: { push(chunk: Uint8Array): T[] }, data: Uint8Array, size: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < data.byteLength; i += size) out.push(...parser.push(data.subarray(i, i + size)));
  return out;
}

describe('RgJsonParser', () => {
  const match = (path: string, line: number, text: string, start: number, end: number) =>
    JSON.stringify({
      type: 'match',
      data: { path: { text: path }, lines: { text }, line_number: line, submatches: [{ start, end }] },
    });
  const output = bytes(
    [
      JSON.stringify({ type: 'begin', data: { path: { text: `./${HOSTILE}` } } }),
      match(`./${HOSTILE}`, 1, 'alpha needle\n', 6, 12),
      // "Grüße " is 8 bytes but 6 characters: the range counts characters.
      match(`./${HOSTILE}`, 2, 'Grüße needle end\r\n', 8, 14),
      JSON.stringify({
        type: 'match',
        data: {
          path: { bytes: Buffer.from('raw.bin').toString('base64') },
          lines: { bytes: Buffer.from('a needle').toString('base64') },
          line_number: 7,
          submatches: [{ start: 2, end: 8 }],
        },
      }),
      JSON.stringify({ type: 'end', data: {} }),
      JSON.stringify({ type: 'summary', data: {} }),
      '',
    ].join('\n'),
  );

  it('keeps match records whole, whatever the chunking, with names holding newlines and colons', () => {
    for (const size of [1, 7, 64, output.byteLength]) {
      expect(feed(new RgJsonParser(), output, size)).toEqual([
        { path: HOSTILE, line: 1, text: 'alpha needle', ranges: [[6, 12]] },
        { path: HOSTILE, line: 2, text: 'Grüße needle end', ranges: [[6, 12]] },
        { path: 'raw.bin', line: 7, text: 'a needle', ranges: [[2, 8]] },
      ]);
    }
  });

  it('skips a line that is not JSON instead of failing the search', () => {
    const parser = new RgJsonParser();
    expect(parser.push(bytes('not json\n'))).toEqual([]);
    expect(parser.push(bytes(`${match('a.txt', 3, 'needle', 0, 6)}\n`))).toHaveLength(1);
  });
});

describe('GrepNullParser', () => {
  // What `grep -rnH --null` prints: the name, NUL, the line number, ":" and the line.
  const output = Buffer.concat([
    bytes(`./${HOSTILE}\u00001:alpha needle\n`),
    bytes(`./${HOSTILE}\u00002:Grüße NEEDLE: end\n`),
    bytes('./plain.txt\u000012:needle needle\n'),
  ]);

  it('ends a name only at its NUL, so newlines and colons in it stay, whatever the chunking', () => {
    for (const size of [1, 5, output.byteLength]) {
      expect(feed(new GrepNullParser(rangeFinder(query())), output, size)).toEqual([
        { path: HOSTILE, line: 1, text: 'alpha needle', ranges: [[6, 12]] },
        { path: HOSTILE, line: 2, text: 'Grüße NEEDLE: end', ranges: [[6, 12]] },
        {
          path: 'plain.txt',
          line: 12,
          text: 'needle needle',
          ranges: [
            [0, 6],
            [7, 13],
          ],
        },
      ]);
    }
  });

  it('finds the ranges again with the same options: case, whole word, regex', () => {
    expect(rangeFinder(query({ caseSensitive: true }))('Needle needle')).toEqual([[7, 13]]);
    expect(rangeFinder(query({ wholeWord: true }))('needles needle_x needle.')).toEqual([[17, 23]]);
    expect(rangeFinder(query({ query: 'n[e]+dle', regex: true }))('a needle')).toEqual([[2, 8]]);
    expect(rangeFinder(query({ query: 'a.c' }))('abc a.c')).toEqual([[4, 7]]);
    // A pattern JavaScript cannot read marks nothing, and does not throw.
    expect(rangeFinder(query({ query: '(', regex: true }))('(')).toEqual([]);
  });
});

describe('searchArgv', () => {
  it('passes the query after -e and the globs as their own arguments, never through a shell', () => {
    const hostile = query({ query: '--files; rm -rf ~ $(x)', include: '*.ts, -x' });
    const rg = searchArgv('rg', hostile, 200);
    expect(rg.slice(-4)).toEqual(['-e', '--files; rm -rf ~ $(x)', '--', '.']);
    expect(rg).toContain('--fixed-strings');
    expect(rg.join(' ')).toContain('--glob *.ts --glob -x --glob !.git');
    const grep = searchArgv('grep', hostile, 200);
    expect(grep.slice(-4)).toEqual(['-e', '--files; rm -rf ~ $(x)', '--', '.']);
    expect(grep).toEqual(expect.arrayContaining(['-F', '--null', '--include=*.ts', '--include=-x', '-i']));
    expect(searchArgv('grep', query({ regex: true, caseSensitive: true, wholeWord: true }), 5)).toEqual(
      expect.arrayContaining(['-E', '-w', '-m', '5']),
    );
    expect(searchArgv('grep', query({ caseSensitive: true }), 5)).not.toContain('-i');
  });
});

describe('cutLine', () => {
  it('cuts a long line around its first match and moves the ranges with it', () => {
    const text = `${'x'.repeat(1000)}needle${'y'.repeat(1000)}`;
    const cut = cutLine({ path: 'a', line: 1, text, ranges: [[1000, 1006]] }, 100);
    expect(cut.text).toHaveLength(100);
    const [start, end] = cut.ranges[0]!;
    expect(cut.text.slice(start, end)).toBe('needle');
    expect(cutLine({ path: 'a', line: 1, text: 'short needle', ranges: [[6, 12]] }, 100).text).toBe(
      'short needle',
    );
  });
});

describe('NulSeparatedPaths', () => {
  it('splits NUL-terminated names across chunks, keeping newlines in them and dropping "./"', () => {
    const data = bytes(`./${HOSTILE}\u0000src/a.ts\u0000./ü/b.ts\u0000`);
    for (const size of [1, 3, data.byteLength]) {
      expect(feed(new NulSeparatedPaths(), data, size)).toEqual([HOSTILE, 'src/a.ts', 'ü/b.ts']);
    }
  });
});
