import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { touchRunFiles } from '../../../../electron/server/daemon/run-files-keeper';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the run files keeper', () => {
  it('makes old run files and their directory look fresh, skipping missing ones', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-touch-'));
    dirs.push(dir);
    const pidfile = path.join(dir, 'a.pid');
    writeFileSync(pidfile, '1\n');
    const longAgo = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000);
    for (const file of [pidfile, dir]) utimesSync(file, longAgo, longAgo);
    const before = Date.now() - 1000;
    touchRunFiles([dir, path.join(dir, 'missing.sock'), pidfile]);
    for (const file of [pidfile, dir]) {
      expect(statSync(file).mtimeMs).toBeGreaterThan(before);
      expect(statSync(file).atimeMs).toBeGreaterThan(before);
    }
  });
});
