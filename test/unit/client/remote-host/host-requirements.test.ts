// The probe's verdict on hosts Tether cannot serve (musl, an old glibc, an unknown architecture,
// another OS, missing tools) and its choice of node, from the facts a probe reports.
import { describe, expect, it } from 'vitest';
import {
  hostRequirementsError,
  nodeChoice,
  type HostFacts,
} from '../../../../electron/client/remote-host/remote-probe';

const debian: HostFacts = {
  home: '/home/ann',
  os: 'Linux',
  machine: 'x86_64',
  arch: 'x64',
  glibc: [2, 36],
  musl: false,
  glibcLoader: true,
  nodePath: null,
  nodeMajor: null,
  installedManifestSha256: null,
  runtimes: [],
  freeKb: 10_000_000,
  tools: new Set(['xz', 'gzip', 'tar', 'sha256sum']),
};

const verdict = (facts: Partial<HostFacts>): string | undefined =>
  hostRequirementsError({ ...debian, ...facts }, 'box')?.message;

describe('hostRequirementsError', () => {
  it('accepts a glibc 2.28+ Linux on x86_64 or aarch64', () => {
    expect(verdict({})).toBeUndefined();
    expect(verdict({ machine: 'aarch64', arch: 'arm64', glibc: [2, 28] })).toBeUndefined();
  });

  it('names what an unsupported host lacks', () => {
    expect(verdict({ musl: true, glibc: null })).toMatch(/musl libc.*need glibc 2\.28.*--remote-node/);
    expect(verdict({ glibc: null, glibcLoader: false })).toMatch(/no glibc.*busybox.*--remote-node/);
    expect(verdict({ glibc: [2, 17] })).toMatch(/glibc is 2\.17.*needs 2\.28/);
    expect(verdict({ glibc: [1, 30] })).toMatch(/glibc is 1\.30/);
    expect(verdict({ machine: 'armv7l', arch: null })).toMatch(/architecture armv7l/);
    expect(verdict({ os: 'Darwin' })).toMatch(/runs Darwin/);
    expect(verdict({ tools: new Set(['gzip', 'sha256sum']) })).toMatch(/no "tar"/);
    expect(verdict({ tools: new Set(['tar']) })).toMatch(/none of sha256sum, shasum or openssl/);
    expect(verdict({ home: '/home/a b' })).toMatch(/home directory/i);
  });

  it("leaves a host without glibc to a node of the user's own, and trusts glibc's loader", () => {
    const mine = (facts: Partial<HostFacts>): string | undefined =>
      hostRequirementsError({ ...debian, ...facts }, 'box', '/usr/bin/node')?.message;
    expect(mine({ musl: true, glibc: null })).toBeUndefined();
    expect(mine({ glibc: null, glibcLoader: false })).toBeUndefined();
    expect(verdict({ glibc: null, glibcLoader: true })).toBeUndefined();
  });
});

describe('nodeChoice', () => {
  it("uses the host's node from 20 on, else the runtime", () => {
    expect(nodeChoice({ ...debian, nodePath: '/usr/bin/node', nodeMajor: 20 }, undefined)).toEqual({
      kind: 'host',
      path: '/usr/bin/node',
    });
    expect(nodeChoice({ ...debian, nodePath: '/usr/bin/node', nodeMajor: 18 }, undefined)).toEqual({
      kind: 'runtime',
    });
    expect(nodeChoice(debian, undefined)).toEqual({ kind: 'runtime' });
  });

  it('insists on a remoteNodePath that is a runnable node ≥ 20', () => {
    const mine = { ...debian, nodePath: '/opt/node/bin/node', nodeMajor: 22 };
    expect(nodeChoice(mine, '/opt/node/bin/node')).toEqual({ kind: 'host', path: '/opt/node/bin/node' });
    expect(() => nodeChoice({ ...mine, nodeMajor: 16 }, '/opt/node/bin/node')).toThrow(/is Node 16/);
    expect(() => nodeChoice(debian, '/opt/none')).toThrow(/not a runnable Node/);
  });
});
