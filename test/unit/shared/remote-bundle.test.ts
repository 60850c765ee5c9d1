import { describe, expect, it } from 'vitest';
import { parseRemoteBundleManifest, remoteBundleId } from '../../../shared/remote-bundle';

const file = { path: 'server.mjs', size: 3, sha256: 'a'.repeat(64) };
const manifest = { version: '0.1.0', hash: '0123456789ab', files: [file] };

describe('the remote bundle manifest', () => {
  it('accepts a well-formed manifest and names the bundle <version>-<hash>', () => {
    expect(parseRemoteBundleManifest(manifest)).toEqual(manifest);
    expect(remoteBundleId(manifest)).toBe('0.1.0-0123456789ab');
  });

  it('refuses file paths that leave the bundle directory', () => {
    for (const path of ['/etc/passwd', '../x', 'node-pty/../../x', '']) {
      expect(() => parseRemoteBundleManifest({ ...manifest, files: [{ ...file, path }] })).toThrow(
        /invalid file entry/,
      );
    }
  });

  it('refuses a bad hash, version, size or checksum', () => {
    expect(() => parseRemoteBundleManifest({ ...manifest, hash: '0123456789AB' })).toThrow(/hash/);
    expect(() => parseRemoteBundleManifest({ ...manifest, hash: '0123' })).toThrow(/hash/);
    expect(() => parseRemoteBundleManifest({ ...manifest, version: '0.1.0; rm -rf ~' })).toThrow(/version/);
    expect(() => parseRemoteBundleManifest({ ...manifest, files: [{ ...file, size: -1 }] })).toThrow();
    expect(() => parseRemoteBundleManifest({ ...manifest, files: [{ ...file, sha256: 'xyz' }] })).toThrow();
    expect(() => parseRemoteBundleManifest({ ...manifest, files: [] })).toThrow(/no files/);
  });
});
