// `server.mjs gc --keep ID` on a fake home with installed versions: old bundles go; the kept one,
// one whose daemon is still serving, one installed just now, and directories that are not
// bundles stay.
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DaemonRig } from './daemon-rig';
import { waitFor } from '../../support/wait';

const rigs: DaemonRig[] = [];
const homes: string[] = [];
afterEach(async () => {
  await Promise.all(rigs.splice(0).map((rig) => rig.cleanup()));
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe('bundle gc', () => {
  it('removes other versions whose daemon is gone, and nothing else', async () => {
    const rig = new DaemonRig();
    rigs.push(rig);
    const home = mkdtempSync(path.join(os.tmpdir(), 'tether-home-'));
    homes.push(home);
    const root = path.join(home, '.tether', 'server');
    const old = '0.0.9-aaaaaaaaaaaa';
    const serving = '0.0.8-bbbbbbbbbbbb';
    const fresh = '0.2.0-dddddddddddd';
    const anHourAgo = new Date(Date.now() - 60 * 60 * 1000);
    for (const dir of [rig.id, old, serving, fresh, 'notes', '.staging-0.1.0-cccccccccccc']) {
      mkdirSync(path.join(root, dir), { recursive: true });
      writeFileSync(path.join(root, dir, 'server.mjs'), '');
      if (dir !== fresh) utimesSync(path.join(root, dir), anHourAgo, anHourAgo);
    }
    // A real daemon on the older version's socket: its bundle is in use.
    mkdirSync(rig.runDir, { mode: 0o700 });
    const servingSocket = path.join(rig.runDir, `${serving}.sock`);
    rig.spawn(['daemon', '--listen', `unix:${servingSocket}`], rig.env());
    await waitFor(() => existsSync(servingSocket), 'older daemon listening');
    writeFileSync(path.join(rig.runDir, `${old}.log`), 'old log');

    const result = await rig.run(['gc', '--keep', rig.id], rig.env({ HOME: home }));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ removed: [old], inUse: [serving, fresh] });
    expect(existsSync(path.join(root, old))).toBe(false);
    expect(existsSync(path.join(rig.runDir, `${old}.log`))).toBe(false);
    for (const kept of [rig.id, serving, fresh, 'notes', '.staging-0.1.0-cccccccccccc']) {
      expect(existsSync(path.join(root, kept))).toBe(true);
    }
  });
});
