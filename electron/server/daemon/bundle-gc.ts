// `server.mjs gc --keep <id>`: removes installed bundles (~/.tether/server/<version>-<hash>/)
// other than the kept one whose daemon no longer answers, with that daemon's leftover run files.
// A daemon still serving an older version keeps its bundle until it has exited, on this host (its
// socket answers) or on another one sharing this home (its fresh host marker), and a bundle
// installed only minutes ago (by another client, whose daemon may not be up yet) is left too.
// It also sweeps staging copies of installs that were killed outright (no trap ran) long ago.
import { readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REMOTE_SERVER_ROOT } from '../../../shared/remote-bundle';
import { daemonPaths, ensureRunDir } from './daemon-paths';
import { GC_HOST_MARKER_STALE_MS, GC_MIN_BUNDLE_AGE_MS, GC_STAGING_MAX_AGE_MS } from '../limits';
import { hostMarkers, removeHostMarker } from './host-marker';
import { socketAnswers } from './socket-probe';

/** Where the bootstrap stages its uploads: beside each artifact, as `<final>.staging-<8 hex>`. */
const STAGING_ROOTS = [REMOTE_SERVER_ROOT, '.tether/runtime'];
const STAGING_PATTERN = /\.staging-[0-9a-f]{8}$/;

/** Only directories named like a bundle id are ours to remove (staging dirs and strays are left). */
const BUNDLE_ID_PATTERN = /^[0-9A-Za-z][0-9A-Za-z.+_-]*-[0-9a-f]{12}$/;

export interface GcResult {
  removed: string[];
  /** Bundles left because their daemon is running (here or on another host), or they are new. */
  inUse: string[];
  /** Staging copies of killed installs that were removed. */
  sweptStaging: string[];
}

/** The newest time of `dir` and its entries: an upload in progress keeps its payload's fresh. */
function newestMtimeMs(dir: string): number {
  let newest = statSync(dir).mtimeMs;
  for (const name of readdirSync(dir)) {
    try {
      newest = Math.max(newest, statSync(path.join(dir, name)).mtimeMs);
    } catch {
      // Gone meanwhile.
    }
  }
  return newest;
}

/** Removes staging copies untouched for GC_STAGING_MAX_AGE_MS; returns their names. */
function sweepStaging(home: string): string[] {
  const swept: string[] = [];
  for (const sub of STAGING_ROOTS) {
    const root = path.join(home, sub);
    let names: string[];
    try {
      names = readdirSync(root, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && STAGING_PATTERN.test(entry.name))
        .map((entry) => entry.name);
    } catch {
      continue;
    }
    for (const name of names) {
      try {
        if (Date.now() - newestMtimeMs(path.join(root, name)) < GC_STAGING_MAX_AGE_MS) continue;
      } catch {
        continue;
      }
      rmSync(path.join(root, name), { recursive: true, force: true });
      swept.push(name);
    }
  }
  return swept;
}

/** Whether a daemon on another host sharing this home still runs `id`; drops markers it judges stale. */
function usedByAnotherHost(home: string, id: string): boolean {
  let used = false;
  for (const marker of hostMarkers(home, id)) {
    // On this host the socket is the truth, and it did not answer.
    if (marker.host !== os.hostname() && marker.ageMs < GC_HOST_MARKER_STALE_MS) used = true;
    else removeHostMarker(marker.file);
  }
  return used;
}

export async function collectOldBundles(keep: string, home: string = os.homedir()): Promise<GcResult> {
  const root = path.join(home, REMOTE_SERVER_ROOT);
  const runDir = ensureRunDir(process.env, home);
  const result: GcResult = { removed: [], inUse: [], sweptStaging: sweepStaging(home) };
  let entries: string[];
  try {
    entries = readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && BUNDLE_ID_PATTERN.test(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return result;
  }
  for (const id of entries) {
    if (id === keep) continue;
    const paths = daemonPaths(runDir, id);
    const recent = Date.now() - statSync(path.join(root, id)).mtimeMs < GC_MIN_BUNDLE_AGE_MS;
    if (recent || (await socketAnswers(paths.socket)) || usedByAnotherHost(home, id)) {
      result.inUse.push(id);
      continue;
    }
    rmSync(path.join(root, id), { recursive: true, force: true });
    for (const file of [paths.socket, paths.pidfile, paths.lock, paths.log]) rmSync(file, { force: true });
    result.removed.push(id);
  }
  return result;
}
