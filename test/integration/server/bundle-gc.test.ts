// `server.mjs gc --keep ID` on a fake home with installed versions: old bundles go; the kept one,
// one whose daemon is still serving, one installed just now, and directories that are not
// bundles stay. In a home shared with other hosts, a bundle another host's daemon marks as in use
// stays, unless its marker went stale (or names this host, where the socket says no); staging
// copies of killed installs are swept once old.
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
    const elsewhere = '0.0.7-eeeeeeeeeeee';
    const staleElsewhere = '0.0.6-ffffffffffff';
    const deadHere = '0.0.5-abababababab';
    const anHourAgo = new Date(Date.now() - 60 * 60 * 1000);
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const fourHoursAgo = new Date(Date.now() - 4 * 60 * 60 * 1000);
    const bundles = [rig.id, old, serving, fresh, elsewhere, staleElsewhere, deadHere];
    for (const dir of [...bundles, 'notes', '.staging-0.1.0-cccccccccccc']) {
      mkdirSync(path.join(root, dir), { recursive: true });
      writeFileSync(path.join(root, dir, 'server.mjs'), '');
      if (dir !== fresh) utimesSync(path.join(root, dir), anHourAgo, anHourAgo);
    }
    // Host markers: a daemon on another host runs `elsewhere`; the one of `staleElsewhere` there
    // stopped refreshing hours ago; this host's marker of `deadHere` has no daemon behind it.
    const markers = path.join(home, '.tether', 'daemons');
    mkdirSync(markers, { recursive: true });
    const marker = (id: string, host: string, time?: Date): string => {
      const file = path.join(markers, `${id}@${host}`);
      writeFileSync(file, '1\n');
      if (time) utimesSync(file, time, time);
      return file;
    };
    const liveMarker = marker(elsewhere, 'another-host');
    const staleMarker = marker(staleElsewhere, 'another-host', fourHoursAgo);
    const deadMarker = marker(deadHere, os.hostname());
    // Staging copies: two of installs killed long ago (a bundle's, a runtime's), and one in progress.
    const staging = (dir: string, time: Date | null): string => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'payload'), 'partial');
      if (time) {
        utimesSync(path.join(dir, 'payload'), time, time);
        utimesSync(dir, time, time);
      }
      return dir;
    };
    const killedBundle = staging(path.join(root, `${old}.staging-0123abcd`), twoHoursAgo);
    const killedRuntime = staging(
      path.join(home, '.tether', 'runtime', 'node-v22.23.5-linux-x64.staging-89abcdef'),
      twoHoursAgo,
    );
    const uploading = staging(path.join(root, `${rig.id}.staging-deadbeef`), null);
    utimesSync(uploading, twoHoursAgo, twoHoursAgo);
    // A real daemon on the older version's socket: its bundle is in use.
    mkdirSync(rig.runDir, { mode: 0o700 });
    const servingSocket = path.join(rig.runDir, `${serving}.sock`);
    rig.spawn(['daemon', '--listen', `unix:${servingSocket}`], rig.env());
    await waitFor(() => existsSync(servingSocket), 'older daemon listening');
    writeFileSync(path.join(rig.runDir, `${old}.log`), 'old log');

    const result = await rig.run(['gc', '--keep', rig.id], rig.env({ HOME: home }));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      removed: [deadHere, staleElsewhere, old],
      inUse: [elsewhere, serving, fresh],
      sweptStaging: [`${old}.staging-0123abcd`, 'node-v22.23.5-linux-x64.staging-89abcdef'],
    });
    for (const gone of [old, deadHere, staleElsewhere]) expect(existsSync(path.join(root, gone))).toBe(false);
    expect(existsSync(path.join(rig.runDir, `${old}.log`))).toBe(false);
    for (const kept of [rig.id, serving, fresh, elsewhere, 'notes', '.staging-0.1.0-cccccccccccc']) {
      expect(existsSync(path.join(root, kept))).toBe(true);
    }
    expect([liveMarker, staleMarker, deadMarker].map((file) => existsSync(file))).toEqual([
      true,
      false,
      false,
    ]);
    expect([killedBundle, killedRuntime, uploading].map((dir) => existsSync(dir))).toEqual([
      false,
      false,
      true,
    ]);
  });
});
