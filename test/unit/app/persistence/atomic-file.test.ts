// A config write that fails leaves no temp file beside the config: the write failing (a real EFBIG,
// the save running under a file-size limit, which root cannot bypass) and the rename failing (the
// target is a non-empty directory). The old file stays as it was.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../../electron/app/persistence/atomic-file';
import { CONFIG_FILE_NAME, ConfigStore } from '../../../../electron/app/persistence/config-store';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'save-config-child.ts');
/** The child's file-size limit, in ulimit's 1024-byte blocks: a small config fits, a big one not. */
const FILE_SIZE_LIMIT_BLOCKS = 4;

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-atomic-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('removes its temp file when the write fails, keeping the old config', async () => {
    const dir = tempDir();
    const store = new ConfigStore(dir);
    await store.save((await store.load()).config);
    const before = readFileSync(path.join(dir, CONFIG_FILE_NAME), 'utf8');
    // 100 environments make a config well over the limit, so the temp file's write hits EFBIG.
    const run = spawnSync(
      'bash',
      [
        '-c',
        `ulimit -f ${FILE_SIZE_LIMIT_BLOCKS} && exec "$@"`,
        'bash',
        process.execPath,
        '--import',
        'tsx',
        CHILD,
        dir,
        '100',
      ],
      { encoding: 'utf8', timeout: 60_000, env: { ...process.env, TSX_DISABLE_CACHE: '1' } },
    );
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('EFBIG');
    expect(readdirSync(dir)).toEqual([CONFIG_FILE_NAME]);
    expect(readFileSync(path.join(dir, CONFIG_FILE_NAME), 'utf8')).toBe(before);
  });

  it('removes its temp file when the rename fails (the target is a non-empty directory)', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'settings.json');
    mkdirSync(target);
    writeFileSync(path.join(target, 'inside'), 'x');
    await expect(writeFileAtomic(target, '{}\n')).rejects.toMatchObject({ code: 'EISDIR' });
    expect(readdirSync(dir)).toEqual(['settings.json']);
    expect(readdirSync(target)).toEqual(['inside']);
  });
});
