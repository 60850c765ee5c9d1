// The `tether` command as users run it (bin/tether.js, built dist/) with its code cache in a
// temporary $XDG_CACHE_HOME: the second `tether run` uses the file the first wrote, a damaged
// file is passed over and rewritten, and the command's output and status stay what they are.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TETHER_BIN } from '../../support/exec-servers';

let cacheHome: string;
const cacheDir = (): string => path.join(cacheHome, 'tether', 'cli-code-cache');

beforeEach(() => {
  cacheHome = mkdtempSync(path.join(os.tmpdir(), 'tether-cli-cache-'));
});
afterEach(() => rmSync(cacheHome, { recursive: true, force: true }));

/** `tether run --stdio "tether exec-server --listen stdio" -- sh -c …`, reporting what the cache did. */
function tetherRun(mode = 'verbose'): { status: number | null; stdout: string; cache: string[] } {
  const server = [process.execPath, TETHER_BIN, 'exec-server', '--listen', 'stdio']
    .map((a) => `'${a}'`)
    .join(' ');
  const result = spawnSync(
    process.execPath,
    [TETHER_BIN, 'run', '--stdio', server, '--', '/bin/sh', '-c', 'echo from-run; exit 3'],
    {
      encoding: 'utf8',
      timeout: 30_000,
      // The server under --stdio runs the same CLI too: it writes its own file (exec-server).
      env: { ...process.env, XDG_CACHE_HOME: cacheHome, TETHER_CODE_CACHE: mode },
    },
  );
  const cache = result.stderr.split('\n').filter((line) => line.startsWith('tether: code cache'));
  return { status: result.status, stdout: result.stdout, cache };
}

function runFile(): string {
  const files = readdirSync(cacheDir()).filter((name) => /^cli-[0-9a-f]{16}-run-.*\.v8cache$/.test(name));
  expect(files).toHaveLength(1);
  return path.join(cacheDir(), files[0]!);
}

describe('tether with its code cache', () => {
  it('writes the cache on the first run and uses it on the second', () => {
    const first = tetherRun();
    expect(first).toMatchObject({ status: 3, stdout: 'from-run\n' });
    expect(first.cache).toEqual([
      expect.stringMatching(/^tether: code cache missing: /),
      expect.stringMatching(/^tether: code cache written: .* \(\d+ bytes\)$/),
    ]);
    const file = runFile();
    const written = readFileSync(file);
    const mtime = statSync(file).mtimeMs;

    const second = tetherRun();
    expect(second).toMatchObject({ status: 3, stdout: 'from-run\n' });
    expect(second.cache).toEqual([`tether: code cache used: ${file}`]);
    expect(statSync(file).mtimeMs).toBe(mtime);
    expect(readFileSync(file)).toEqual(written);
  });

  it('passes over a truncated or corrupt cache and writes a good one', () => {
    tetherRun();
    const file = runFile();
    const good = readFileSync(file);
    for (const damaged of [good.subarray(0, good.length >> 1), Buffer.from(good).fill(0x41, 200, 4_000)]) {
      writeFileSync(file, damaged);
      const run = tetherRun();
      expect(run).toMatchObject({ status: 3, stdout: 'from-run\n' });
      expect(run.cache).toEqual([
        `tether: code cache invalid: ${file}`,
        expect.stringMatching(/^tether: code cache written: /),
      ]);
      expect(tetherRun().cache).toEqual([`tether: code cache used: ${file}`]);
    }
  });

  it('TETHER_CODE_CACHE=off neither reads nor writes one', () => {
    const run = tetherRun('off');
    expect(run).toMatchObject({ status: 3, stdout: 'from-run\n', cache: [] });
    expect(() => readdirSync(cacheDir())).toThrow();
  });
});
