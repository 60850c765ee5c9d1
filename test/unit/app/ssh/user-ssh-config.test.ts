// Which ssh config file ssh reads and Tether names with -F: $HOME's, but only when it exists and
// ssh would not read it by itself (ssh looks in the passwd home, not $HOME); else the passwd home's.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { userSshConfig } from '../../../../electron/app/ssh/ssh-hosts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function home(withConfig: boolean): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-ssh-home-'));
  dirs.push(dir);
  if (withConfig) {
    mkdirSync(path.join(dir, '.ssh'));
    writeFileSync(path.join(dir, '.ssh', 'config'), 'Host lab\n  HostName 127.0.0.1\n');
  }
  return dir;
}

describe('userSshConfig', () => {
  it("names $HOME's config when $HOME is not the passwd home and the file exists", () => {
    const dir = home(true);
    expect(userSshConfig(dir, '/home/someone')).toEqual({
      file: path.join(dir, '.ssh', 'config'),
      explicit: true,
    });
  });

  it('names no file when $HOME has no ssh config, so ssh does not fail on a missing -F file', () => {
    const dir = home(false);
    // ssh then reads the passwd home's config, so that is the file the app lists and adds to.
    expect(userSshConfig(dir, '/home/someone')).toEqual({
      file: path.join('/home/someone', '.ssh', 'config'),
      explicit: false,
    });
  });

  it('names no file when $HOME is the passwd home (ssh reads it by itself)', () => {
    const dir = home(true);
    expect(userSshConfig(dir, dir).explicit).toBe(false);
  });
});
