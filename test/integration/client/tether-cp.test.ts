// `tether cp` end to end against both servers through a fault proxy: files and folders both ways,
// byte-exact (empty files, names with spaces and unicode), an existing file replaced whole, a
// transfer cut mid-way that continues after the reconnect, and scp's exit codes (0, or 1 when
// anything failed: a missing source, a folder without -r, a link that points nowhere).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FaultProxy } from '../../support/fault-proxy';
import { startServer, TETHER_BIN, type ServerImpl } from '../../support/exec-servers';
import { waitFor } from './helpers';

const MiB = 1_048_576;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface CpResult {
  code: number | null;
  stderr: string;
}

/** Every file under `dir` (relative path → contents), folders as null. */
function tree(dir: string, prefix = ''): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix + entry.name;
    if (entry.isDirectory()) Object.assign(out, { [rel]: null }, tree(path.join(dir, entry.name), `${rel}/`));
    else out[rel] = readFileSync(path.join(dir, entry.name)).toString('hex');
  }
  return out;
}

describe.each<ServerImpl>(['tether', 'codex'])('tether cp against %s', (impl) => {
  async function setup() {
    const server = await startServer(impl, 'ws');
    cleanups.push(() => server.stop());
    const proxy = await FaultProxy.forUrl(server.url!);
    cleanups.push(() => proxy.close());
    const auth = server.tokenFile ? ['--token-file', server.tokenFile] : [];
    const cp = (...args: string[]): Promise<CpResult> =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [TETHER_BIN, 'cp', '--server', proxy.url(), ...auth, ...args], {
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
    const home = server.home;
    const local = path.join(home, 'local');
    const remote = path.join(home, 'remote');
    mkdirSync(local);
    mkdirSync(remote);
    return { proxy, cp, local, remote };
  }

  it('copies a folder both ways byte-exact, with empty files, nested empty folders and unusual names', async () => {
    const { cp, local, remote } = await setup();
    const source = path.join(local, 'my project');
    mkdirSync(path.join(source, 'sub dir', 'ünï', 'deeper'), { recursive: true });
    mkdirSync(path.join(source, 'empty folder'));
    mkdirSync(path.join(source, 'sub dir', 'ünï', 'empty inner', 'empty innermost'), { recursive: true });
    writeFileSync(path.join(source, 'empty.txt'), '');
    writeFileSync(path.join(source, 'sub dir', 'ünï', 'naïve file.bin'), randomBytes(3 * MiB + 7));
    for (let i = 0; i < 20; i++) writeFileSync(path.join(source, 'sub dir', `small ${i}`), randomBytes(4096));
    expect(await cp('-r', source, `remote:${remote}`)).toMatchObject({ code: 0 });
    expect(tree(path.join(remote, 'my project'))).toEqual(tree(source));
    const back = path.join(local, 'back');
    expect(await cp('-r', `remote:${path.join(remote, 'my project')}`, back)).toMatchObject({ code: 0 });
    expect(tree(back)).toEqual(tree(source));
    // Nothing staged or partial is left on either side.
    const leftovers = (dir: string) => Object.keys(tree(dir)).filter((n) => /tether-(upload|part)/.test(n));
    expect([...leftovers(remote), ...leftovers(local)]).toEqual([]);
  });

  it('replaces an existing file whole, into a folder it names', async () => {
    const { cp, local, remote } = await setup();
    writeFileSync(path.join(remote, 'notes.txt'), 'old');
    writeFileSync(path.join(local, 'notes.txt'), 'new contents');
    expect(await cp(path.join(local, 'notes.txt'), `remote:${remote}`)).toMatchObject({ code: 0 });
    expect(readFileSync(path.join(remote, 'notes.txt'), 'utf8')).toBe('new contents');
  });

  it.each(['upload', 'download'] as const)(
    'a %s cut mid-way continues after the reconnect',
    async (direction) => {
      const { proxy, cp, local, remote } = await setup();
      const data = randomBytes(24 * MiB);
      const from = path.join(direction === 'upload' ? local : remote, 'big.bin');
      const to = path.join(direction === 'upload' ? remote : local, 'big.bin');
      writeFileSync(from, data);
      // Slow enough that the cut lands with the transfer under way.
      proxy.throttle(8 * MiB);
      const args = direction === 'upload' ? [from, `remote:${to}`] : [`remote:${from}`, to];
      const run = cp(...args);
      const landing = path.dirname(to);
      await waitFor('a third of the file written', () =>
        readdirSync(landing).some(
          (n) => n.includes('tether-') && statSync(path.join(landing, n)).size > 8 * MiB,
        ),
      );
      expect(proxy.cutAll()).toBeGreaterThan(0);
      proxy.throttle(null);
      expect(await run).toMatchObject({ code: 0 });
      expect(readFileSync(to).equals(data)).toBe(true);
    },
  );

  it('exits 1 when anything fails, saying what', async () => {
    const { cp, local, remote } = await setup();
    expect(await cp(`remote:${path.join(remote, 'missing')}`, local)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No such file or directory'),
    });
    mkdirSync(path.join(local, 'folder'));
    symlinkSync(path.join(local, 'nowhere'), path.join(local, 'folder', 'dangling'));
    writeFileSync(path.join(local, 'folder', 'kept.txt'), 'kept');
    expect(await cp(path.join(local, 'folder'), `remote:${remote}`)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('copy it with -r'),
    });
    const withLink = await cp('-r', path.join(local, 'folder'), `remote:${remote}`);
    expect(withLink).toMatchObject({ code: 1, stderr: expect.stringContaining('dangling') });
    // The rest of the folder was still copied.
    expect(readFileSync(path.join(remote, 'folder', 'kept.txt'), 'utf8')).toBe('kept');
    expect(existsSync(path.join(remote, 'folder', 'dangling'))).toBe(false);
    expect(await cp(local, remote)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('remote:PATH'),
    });
  });
});
