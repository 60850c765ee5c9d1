// How the Local environment starts Tether's own exec-server over stdio, in development, from the
// CLI (`tether web`) and from a packaged Electron app (where process.execPath is Electron itself,
// run as plain Node with ELECTRON_RUN_AS_NODE=1).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../app-error';

export interface LocalServerCommand {
  command: string[];
  env?: Record<string, string>;
}

/** The Tether package root: the nearest ancestor of `fromDir` whose package.json is named "tether". */
export function findPackageRoot(fromDir: string): string {
  let dir = fromDir;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'tether') return dir;
      } catch {
        // An unreadable manifest is not ours; keep walking up.
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) {
      throw new AppError('internal', `Cannot find Tether's installation above ${fromDir}; reinstall Tether.`);
    }
    dir = parent;
  }
}

export function localServerCommand(options: {
  packageRoot: string;
  /** The Node (or Electron) binary to run the server with. */
  execPath: string;
  /** True inside Electron: the binary must be told to behave as Node. */
  electron: boolean;
}): LocalServerCommand {
  const bin = path.join(options.packageRoot, 'bin', 'tether.js');
  const command = [options.execPath, bin, 'exec-server', '--listen', 'stdio'];
  if (!options.electron) return { command };
  // The stdio transport adds these to the inherited environment.
  return { command, env: { ELECTRON_RUN_AS_NODE: '1' } };
}
