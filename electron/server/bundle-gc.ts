// `server.mjs gc --keep <id>`: removes installed bundles (~/.tether/server/<version>-<hash>/)
// other than the kept one whose daemon no longer answers, with that daemon's leftover run files.
// A daemon still serving an older version keeps its bundle until it has exited.
import { readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REMOTE_SERVER_ROOT } from '../../shared/remote-bundle';
import { daemonPaths, ensureRunDir } from './daemon-paths';
import { socketAnswers } from './socket-probe';

/** Only directories named like a bundle id are ours to remove (staging dirs and strays are left). */
const BUNDLE_ID_PATTERN = /^[0-9A-Za-z.+_]+(?:-[0-9A-Za-z.+_]+)*-[0-9a-f]{12}$/;

export interface GcResult {
  removed: string[];
  /** Bundles left because their daemon is running. */
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
    if (await socketAnswers(paths.socket)) {
      result.inUse.push(id);
      continue;
    }
    rmSync(path.join(root, id), { recursive: true, force: true });
    for (const file of [paths.socket, paths.pidfile, paths.lock, paths.log]) rmSync(file, { force: true });
    result.removed.push(id);
  }
  return result;
}
