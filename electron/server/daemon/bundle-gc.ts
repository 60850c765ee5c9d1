// `server.mjs gc --keep <id>`: removes installed bundles (~/.tether/server/<version>-<hash>/)
// other than the kept one whose daemon no longer answers, with that daemon's leftover run files.
// A daemon still serving an older version keeps its bundle until it has exited, and a bundle
// installed only minutes ago (by another client, whose daemon may not be up yet) is left too.
import { readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REMOTE_SERVER_ROOT } from '../../../shared/remote-bundle';
import { daemonPaths, ensureRunDir } from './daemon-paths';
import { GC_MIN_BUNDLE_AGE_MS } from '../limits';
import { socketAnswers } from './socket-probe';

/** Only directories named like a bundle id are ours to remove (staging dirs and strays are left). */
const BUNDLE_ID_PATTERN = /^[0-9A-Za-z][0-9A-Za-z.+_-]*-[0-9a-f]{12}$/;

export interface GcResult {
  removed: string[];
  /** Bundles left because their daemon is running, or they were installed minutes ago. */
  inUse: string[];
}

export async function collectOldBundles(keep: string, home: string = os.homedir()): Promise<GcResult> {
  const root = path.join(home, REMOTE_SERVER_ROOT);
  const runDir = ensureRunDir();
  const result: GcResult = { removed: [], inUse: [] };
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
    if (recent || (await socketAnswers(paths.socket))) {
      result.inUse.push(id);
      continue;
    }
    rmSync(path.join(root, id), { recursive: true, force: true });
    for (const file of [paths.socket, paths.pidfile, paths.lock, paths.log]) rmSync(file, { force: true });
    result.removed.push(id);
  }
  return result;
}
