// The bootstrap's local private directory: under /tmp/tether-<uid> when that is ours (closed to
// others if it was not), and a fresh mkdtemp directory of its own when another user, or a
// symlink, took that name first: the connect goes on, and nothing is shared with them.
import { chownSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PrivateDir } from '../../../../electron/client/transports/ssh/private-dir';

const NOBODY = 65534;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function scratch(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-pd-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function made(root: string): PrivateDir {
  const dir = new PrivateDir(root);
  cleanups.push(() => dir.remove());
  return dir;
}

function expectPrivateToUs(dir: string): void {
  const stat = lstatSync(dir);
  expect(stat.isDirectory()).toBe(true);
  expect(stat.uid).toBe(os.userInfo().uid);
  expect(stat.mode & 0o777).toBe(0o700);
}

describe('the SSH private directory', () => {
  it('lives under its root when the root is ours, and closes a root left open', () => {
    const root = path.join(scratch(), 'tether-u');
    mkdirSync(root, { mode: 0o755 });
    const dir = made(root);
    expect(path.dirname(dir.path)).toBe(root);
    expectPrivateToUs(root);
    expectPrivateToUs(dir.path);
  });

  it("falls back to a fresh directory of its own when the root is another user's", () => {
    const root = path.join(scratch(), 'tether-u');
    mkdirSync(root, { mode: 0o777 });
    chownSync(root, NOBODY, NOBODY);
    const dir = made(root);
    expect(dir.path.startsWith(`${root}-ssh-`)).toBe(true);
    expectPrivateToUs(dir.path);
    // The other user's directory is left as it was: neither used nor changed.
    expect(lstatSync(root).uid).toBe(NOBODY);
    // Each bootstrap gets one of its own.
    expect(made(root).path).not.toBe(dir.path);
  });

  it('falls back when the root is a symlink, even to a directory of ours', () => {
    const base = scratch();
    const target = path.join(base, 'elsewhere');
    mkdirSync(target, { mode: 0o700 });
    const root = path.join(base, 'tether-u');
    symlinkSync(target, root);
    const dir = made(root);
    expect(dir.path.startsWith(`${root}-ssh-`)).toBe(true);
    expectPrivateToUs(dir.path);
  });
});
