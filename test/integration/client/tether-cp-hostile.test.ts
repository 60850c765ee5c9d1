// `tether cp -r` (the built CLI) against a hostile server whose listing names "..", "../x",
// "../../victim.txt", "a/b", "/abs", "", NUL, backslashes and terminal escapes, and whose files are
// longer or shorter than it says (scp's CVE-2019-6111 and CVE-2019-6109): nothing is written outside
// the target, each refused name gets one escaped warning line, the liars fail without leaving a byte,
// and the honest files arrive.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TETHER_BIN } from '../../support/exec-servers';
import { hostileTree, startHostileFsServer, treeSnapshot as snapshot } from '../../support/hostile-fs-server';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function cp(url: string, ...args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TETHER_BIN, 'cp', '--server', url, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('tether cp -r against a hostile server', () => {
  it('writes nothing outside the target, warns once per refused name, escaped, and copies the rest', async () => {
    const server = await startHostileFsServer({ root: '/share', entries: hostileTree() });
    cleanups.push(() => server.close());
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'tether-cp-hostile-'));
    cleanups.push(() => rmSync(scratch, { recursive: true, force: true }));
    const picked = path.join(scratch, 'home', 'picked');
    mkdirSync(picked, { recursive: true });
    writeFileSync(path.join(scratch, 'home', 'victim.txt'), 'the original\n');
    writeFileSync(path.join(scratch, 'victim.txt'), 'the original\n');

    const { code, stderr } = await cp(server.url, '-r', 'remote:/share', picked);

    expect(code).toBe(1);
    expect(snapshot(scratch)).toEqual({
      'home/': 'dir',
      'home/picked/': 'dir',
      'home/picked/share/': 'dir',
      'home/picked/share/empty folder/': 'dir',
      'home/picked/share/good.txt': 'good\n',
      'home/picked/share/sub/': 'dir',
      'home/picked/share/sub/inner.txt': 'inner\n',
      'home/victim.txt': 'the original\n',
      'victim.txt': 'the original\n',
    });
    const warnings = stderr.split('\n').filter((line) => line.includes('warning: refused'));
    const shown = warnings.map((line) => /refused the server's name "(.*)": /.exec(line)?.[1]).sort();
    expect(shown).toEqual(
      [
        '',
        '..',
        '../../victim.txt',
        '../x',
        '../\\x1b[2J\\x1b[1Aevil',
        '..\\..\\x.cmd',
        '/abs',
        'a/b',
        'a\\x00b',
        'sub/..',
      ].sort(),
    );
    // Nothing the server named reaches the terminal as a control character.
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    // The liars failed as files, each saying what the server declared.
    expect(stderr).toMatch(/tether cp: liar\.txt: .*longer than the 5 bytes the server declared/);
    expect(stderr).toMatch(/tether cp: liar\.bin: .*longer than the 614400 bytes the server declared/);
    expect(stderr).toMatch(/tether cp: short\.txt: .*ended after 5 of the 100 bytes the server declared/);
    // Nothing outside the folder was asked for: the walk never followed a refused name.
    expect(server.asked.filter((p) => !p.startsWith('/share'))).toEqual([]);
  });
});
