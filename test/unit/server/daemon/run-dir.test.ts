// The host's run directory: one per uid and home (/tmp/tether-<uid>-<home key>), and when another
// user took that name first (or made it a symlink), a mkdtemp directory recorded in
// ~/.tether/run-dir, which every later bridge, daemon and gc of that home finds again; a recorded
// directory that went away is replaced.
import {
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureRunDir, homeKey, RUN_DIR_RECORD } from '../../../../electron/server/daemon/daemon-paths';

const NOBODY = 65534;
const uid = os.userInfo().uid;
const removals: string[] = [];
afterEach(() => {
  for (const dir of removals.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshHome(): { home: string; usual: string } {
  const home = mkdtempSync(path.join(os.tmpdir(), 'tether-rd-home-'));
  const usual = `/tmp/tether-${uid}-${homeKey(home)}`;
  removals.push(home, usual);
  return { home, usual };
}

const recorded = (home: string): string => readFileSync(path.join(home, RUN_DIR_RECORD), 'utf8').trim();

describe('the daemon run directory', () => {
  it('is keyed by uid and home: two homes of one uid never share one', () => {
    const a = freshHome();
    const b = freshHome();
    expect(ensureRunDir({}, a.home)).toBe(a.usual);
    expect(ensureRunDir({}, b.home)).toBe(b.usual);
    expect(a.usual).not.toBe(b.usual);
    expect(lstatSync(a.usual).mode & 0o777).toBe(0o700);
    expect(existsSync(path.join(a.home, RUN_DIR_RECORD))).toBe(false);
  });

  it("falls back to a recorded private directory when the usual one is another user's", () => {
    const { home, usual } = freshHome();
    mkdirSync(usual, { mode: 0o700 });
    chownSync(usual, NOBODY, NOBODY);
    const fallback = ensureRunDir({}, home);
    removals.push(fallback);
    expect(fallback).not.toBe(usual);
    expect(fallback.startsWith(`/tmp/tether-${uid}-`)).toBe(true);
    const stat = lstatSync(fallback);
    expect([stat.isDirectory(), stat.uid, stat.mode & 0o777]).toEqual([true, uid, 0o700]);
    expect(recorded(home)).toBe(fallback);
    // Later connects find the same one.
    expect(ensureRunDir({}, home)).toBe(fallback);

    // A recorded directory that a /tmp cleaner removed is replaced, and the record with it.
    rmSync(fallback, { recursive: true });
    const next = ensureRunDir({}, home);
    removals.push(next);
    expect(next).not.toBe(fallback);
    expect(recorded(home)).toBe(next);
  });

  it('falls back when the usual one is a symlink or open to others, and never uses them', () => {
    const linked = freshHome();
    const target = mkdtempSync(path.join(os.tmpdir(), 'tether-rd-target-'));
    removals.push(target);
    symlinkSync(target, linked.usual);
    const a = ensureRunDir({}, linked.home);
    removals.push(a);
    expect(a).not.toBe(linked.usual);

    const open = freshHome();
    mkdirSync(open.usual, { mode: 0o755 });
    const b = ensureRunDir({}, open.home);
    removals.push(b);
    expect(b).not.toBe(open.usual);
    // Refused, not repaired.
    expect(lstatSync(open.usual).mode & 0o777).toBe(0o755);
  });

  it('refuses a recorded directory that is not private any more', () => {
    const { home, usual } = freshHome();
    mkdirSync(usual, { mode: 0o700 });
    chownSync(usual, NOBODY, NOBODY);
    const first = ensureRunDir({}, home);
    removals.push(first);
    chownSync(first, NOBODY, NOBODY);
    const second = ensureRunDir({}, home);
    removals.push(second);
    expect(second).not.toBe(first);
    expect(recorded(home)).toBe(second);
  });
});
