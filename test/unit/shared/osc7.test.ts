// The folder an OSC 7 report names: file URLs with or without a host, percent-encoded; anything
// else (another scheme, a relative path, bad escapes, control characters) is no folder.
import { describe, expect, it } from 'vitest';
import { folderOfOsc7 } from '../../../shared/osc7';

describe('folderOfOsc7', () => {
  it('reads the path of a file URL, decoded, whatever the host', () => {
    expect(folderOfOsc7('file://vm/tmp')).toBe('/tmp');
    expect(folderOfOsc7('file:///home/ann/my%20project')).toBe('/home/ann/my project');
    expect(folderOfOsc7('file://box.example/srv/%C3%BCn%C3%AF')).toBe('/srv/ünï');
  });

  it('takes nothing else for a folder', () => {
    for (const payload of [
      '',
      'http://vm/tmp',
      'file://vm',
      'tmp',
      'file://vm/bad%ZZescape',
      'file://vm/tmp%0Aecho',
      `file://vm/${'a'.repeat(5000)}`,
    ])
      expect(folderOfOsc7(payload)).toBeNull();
  });
});
