// Where the electron package keeps its binary, found without requiring the package: requiring it
// downloads a missing binary on the spot, and offline that prints a long `fetch failed` stack and
// advice about reinstalling that does not apply. `npm start` decides what to say itself.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The command that downloads Electron's binary into node_modules/electron (needs internet). */
export const ELECTRON_DOWNLOAD_COMMAND = 'npx --no install-electron';

/**
 * `{ binary }` when the binary is there, else `{ missing }`: one line saying it is missing and how
 * to get it. `electronDir` is the electron package's folder (node_modules/electron).
 */
export function electronBinaryStatus(electronDir) {
  const pathFile = path.join(electronDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const binary = path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH, relative || 'electron');
    if (existsSync(binary)) return { binary };
  } else if (relative) {
    const binary = path.join(electronDir, 'dist', relative);
    if (existsSync(binary)) return { binary };
  }
  return {
    missing: `Electron's binary is not downloaded (\`${ELECTRON_DOWNLOAD_COMMAND}\` gets it, with internet access)`,
  };
}
