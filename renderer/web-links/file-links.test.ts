// `path:line[:column]` references in terminal output, and the absolute path each names.
import { describe, expect, it } from 'vitest';
import { absolutePath, fileLineLinks } from './file-links';

describe('fileLineLinks', () => {
  it('finds compiler-style references and their lines', () => {
    const text = 'src/app.ts:12:5 - error; see ./lib/a.py:3 and /etc/x.conf:7.';
    expect(fileLineLinks(text).map((l) => [text.slice(l.start, l.end), l.path, l.line])).toEqual([
      ['src/app.ts:12:5', 'src/app.ts', 12],
      ['./lib/a.py:3', './lib/a.py', 3],
      ['/etc/x.conf:7', '/etc/x.conf', 7],
    ]);
  });

  it('leaves times, ports of URLs and names without an extension alone', () => {
    expect(fileLineLinks('at 12:30:45, https://example.com:8080/x, Makefile:3, a.ts:0')).toEqual([]);
  });
});

describe('absolutePath', () => {
  it('resolves a relative path from the folder, . and .. included', () => {
    expect(absolutePath('src/app.ts', '/home/ann/proj')).toBe('/home/ann/proj/src/app.ts');
    expect(absolutePath('../lib/./a.py', '/home/ann/proj')).toBe('/home/ann/lib/a.py');
    expect(absolutePath('/etc/x.conf', undefined)).toBe('/etc/x.conf');
    expect(absolutePath('src/app.ts', undefined)).toBeNull();
  });
});
