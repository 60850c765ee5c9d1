// Homes shared between hosts (NFS): a daemon of an installed bundle leaves a marker
// `~/.tether/daemons/<bundle id>@<host>` in the home, refreshed while it runs, so `gc` on another
// host (whose /tmp holds no socket for it) leaves that bundle alone. On its own host, gc trusts the
// socket instead, so a marker left by a killed daemon there is dropped at once.
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REMOTE_SERVER_ROOT } from '../../../shared/remote-bundle';

export const HOST_MARKERS_DIR = '.tether/daemons';

export function hostMarkerPath(home: string, bundleId: string, host: string = os.hostname()): string {
  return path.join(home, HOST_MARKERS_DIR, `${bundleId}@${host}`);
}

/** The bundle id of `entry` (server.mjs) if it runs from ~/.tether/server/<id>/ of `home`, else null. */
export function installedBundleId(entry: string, home: string): string | null {
  const dir = path.dirname(entry);
  return path.dirname(dir) === path.join(home, REMOTE_SERVER_ROOT) ? path.basename(dir) : null;
}

/** Writes the marker (its time is what other hosts judge; run-files-keeper refreshes it). */
export function writeHostMarker(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${process.pid}\n`, { mode: 0o600 });
}

export interface HostMarker {
  file: string;
  host: string;
  ageMs: number;
}

/** The markers of `bundleId` in `home`, one per host that runs (or ran) its daemon. */
export function hostMarkers(home: string, bundleId: string): HostMarker[] {
  const dir = path.join(home, HOST_MARKERS_DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const prefix = `${bundleId}@`;
  const markers: HostMarker[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const file = path.join(dir, name);
    try {
      markers.push({ file, host: name.slice(prefix.length), ageMs: Date.now() - statSync(file).mtimeMs });
    } catch {
      // Removed meanwhile.
    }
  }
  return markers;
}

export function removeHostMarker(file: string): void {
  rmSync(file, { force: true });
}
