import { describe, expect, it } from 'vitest';
import { privateDirProblem } from '../../../../electron/server/daemon/private-dir';

function facts(mode: number, uid: number, kind: 'dir' | 'file' | 'link' = 'dir') {
  return {
    mode: (kind === 'dir' ? 0o040000 : 0o100000) | mode,
    uid,
    isDirectory: () => kind === 'dir',
    isSymbolicLink: () => kind === 'link',
  };
}

describe('a private directory', () => {
  it('is a directory of ours with no group or other bits', () => {
    expect(privateDirProblem('/d', facts(0o700, 1000), 1000)).toBeNull();
  });

  it('is not one when any group or other bit is set', () => {
    for (const mode of [0o710, 0o701, 0o740, 0o704, 0o720, 0o702, 0o755, 0o777]) {
      expect(privateDirProblem('/d', facts(mode, 1000), 1000)).toMatch(
        new RegExp(`mode ${mode.toString(8)}; it must be accessible only by its owner`),
      );
    }
  });

  it('is not one when another user owns it, or when it is a symlink or a file', () => {
    expect(privateDirProblem('/d', facts(0o700, 0), 1000)).toBe('/d is owned by uid 0, not by us (uid 1000)');
    expect(privateDirProblem('/d', facts(0o700, 1000, 'link'), 1000)).toBe('/d is a symbolic link');
    expect(privateDirProblem('/d', facts(0o700, 1000, 'file'), 1000)).toBe('/d is not a directory');
  });
});
