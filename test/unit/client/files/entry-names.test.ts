// The one check of server-supplied names before they become local paths: what is refused on every
// platform and on Windows only, and that a checked path never leads outside its root.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkEntryName,
  checkRelativePath,
  localPathUnder,
  refusedEntryName,
} from '../../../../electron/client/files/entry-names';
import { isClientError } from '../../../../electron/client/client-error';

const EVERYWHERE = ['', '.', '..', '../x', 'a/b', '/abs', 'a\\b', '..\\..\\x.cmd', 'a\0b', '\0'];
const WINDOWS_ONLY = [
  'a:b',
  'C:',
  'file.txt:stream',
  'CON',
  'con',
  'Con.txt',
  'NUL.tar.gz',
  'prn',
  'AUX.c',
  'COM1',
  'com9.log',
  'LPT1',
  'lpt9.txt',
  'COM¹',
  'CON .txt',
  'name.',
  'name ',
  '.. ',
  '...',
  'x..',
];
const FINE = ['a', '.hidden', '..x', 'naïve file.bin', '日本語', 'CONSOLE', 'COM10', 'lpt', 'nul-ish', 'a b'];

describe('refusedEntryName', () => {
  it.each(EVERYWHERE)('refuses %j on Linux and on Windows', (name) => {
    expect(refusedEntryName(name, 'linux')).toEqual(expect.any(String));
    expect(refusedEntryName(name, 'win32')).toEqual(expect.any(String));
  });

  it.each(WINDOWS_ONLY)('refuses %j on Windows only', (name) => {
    expect(refusedEntryName(name, 'win32')).toEqual(expect.any(String));
    expect(refusedEntryName(name, 'linux')).toBeNull();
    expect(refusedEntryName(name, 'darwin')).toBeNull();
  });

  it.each(FINE)('accepts %j everywhere', (name) => {
    expect(refusedEntryName(name, 'linux')).toBeNull();
    expect(refusedEntryName(name, 'win32')).toBeNull();
  });

  it('says why', () => {
    expect(refusedEntryName('a/b', 'linux')).toBe('the name contains a path separator');
    expect(refusedEntryName('nul.txt', 'win32')).toBe('"nul" is a Windows device name');
  });

  it('checkEntryName throws an unsafeName error that names what it refused', () => {
    expect(() => checkEntryName('../x', 'linux')).toThrow(/Refused the server's name "\.\.\/x"/);
    let thrown: unknown;
    try {
      checkEntryName('..', 'linux');
    } catch (error) {
      thrown = error;
    }
    expect(isClientError(thrown, 'unsafeName')).toBe(true);
    expect(() => checkEntryName('fine', 'linux')).not.toThrow();
  });
});

describe('checkRelativePath', () => {
  it('checks every part of a "/"-separated path', () => {
    expect(() => checkRelativePath('a/b/c.txt', 'linux')).not.toThrow();
    for (const bad of ['a/../b', 'a//b', '/a', 'a/', 'a/./b', 'a/b\\c', 'a/\0']) {
      expect(() => checkRelativePath(bad, 'linux'), bad).toThrow(/Refused/);
    }
    expect(() => checkRelativePath('a/CON.txt', 'win32')).toThrow(/device name/);
    expect(() => checkRelativePath('a/CON.txt', 'linux')).not.toThrow();
  });
});

describe('localPathUnder', () => {
  const root = '/home/u/Downloads/share';

  it('puts a checked path under its root', () => {
    expect(localPathUnder(root, 'sub/inner.txt', 'linux')).toBe('/home/u/Downloads/share/sub/inner.txt');
    expect(localPathUnder(root, '', 'linux')).toBe(root);
    expect(localPathUnder('C:\\Users\\u\\share', 'sub/x.txt', 'win32')).toBe(
      'C:\\Users\\u\\share\\sub\\x.txt',
    );
  });

  it.each(['..', '../x', '../../.bashrc', 'sub/../../x', '/etc/passwd', 'a\\..\\..\\x'])(
    'refuses %j, which would leave the root',
    (relative) => {
      expect(() => localPathUnder(root, relative, 'linux')).toThrow(/Refused/);
      expect(() => localPathUnder('C:\\share', relative, 'win32')).toThrow(/Refused/);
    },
  );

  it('refuses what Windows would read as a drive, a stream or a device', () => {
    for (const relative of ['C:x', 'sub/D:\\x', 'x:stream', 'sub/aux', 'COM1.txt']) {
      expect(() => localPathUnder('C:\\share', relative, 'win32'), relative).toThrow(/Refused/);
    }
  });

  it('resolves a relative root, and what it returns stays inside it', () => {
    const resolved = localPathUnder('out', 'a/b.txt', 'linux');
    expect(path.posix.relative(path.posix.resolve('out'), resolved)).toBe('a/b.txt');
  });
});
