// `npm start` on a machine where Electron's binary was never downloaded: the check says so in one
// line with the command that gets it, and prints nothing itself (requiring the electron package
// instead tries the download and, offline, prints a `fetch failed` stack).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MODULE = pathToFileURL(path.join(root, 'scripts', 'electron-binary.mjs')).href;

let scratch: string;
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of the installed electron package's own files (no binary, none of its dependencies). */
function electronPackageCopy(): string {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'tether-electron-'));
  const dir = path.join(scratch, 'node_modules', 'electron');
  mkdirSync(dir, { recursive: true });
  for (const file of ['package.json', 'index.js', 'install.js'])
    copyFileSync(path.join(root, 'node_modules', 'electron', file), path.join(dir, file));
  return dir;
}

/** Runs the check in a child, as `npm start` does, with what it printed. */
function check(dir: string) {
  const child = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { electronBinaryStatus } = await import(${JSON.stringify(MODULE)});
       process.stdout.write('RESULT ' + JSON.stringify(electronBinaryStatus(${JSON.stringify(dir)})));`,
    ],
    { encoding: 'utf8', env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: '' } },
  );
  const [printed = '', result = 'null'] = child.stdout.split('RESULT ');
  return {
    printed: printed + child.stderr,
    status: JSON.parse(result) as { binary?: string; missing?: string },
  };
}

describe('electronBinaryStatus', () => {
  it('says in one line, printing nothing, that the binary is missing and how to get it', () => {
    const { printed, status } = check(electronPackageCopy());
    expect(printed).toBe('');
    expect(status.binary).toBeUndefined();
    expect(status.missing).toBe(
      "Electron's binary is not downloaded (`npx --no install-electron` gets it, with internet access)",
    );
  });

  it('finds the binary the package downloaded', () => {
    const dir = electronPackageCopy();
    writeFileSync(path.join(dir, 'path.txt'), 'electron');
    mkdirSync(path.join(dir, 'dist'));
    writeFileSync(path.join(dir, 'dist', 'electron'), '', { mode: 0o755 });
    expect(check(dir)).toEqual({ printed: '', status: { binary: path.join(dir, 'dist', 'electron') } });
  });
});
