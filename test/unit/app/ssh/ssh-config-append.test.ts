// The "Add new SSH host" writer: the exact entry, values that would add a second directive
// refused, a known alias refused, ~/.ssh and the file created private, and existing text untouched.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendSshHostEntry, planSshHostEntry } from '../../../../electron/app/ssh/ssh-config-append';
import { AppError } from '../../../../electron/app/app-error';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function home(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-ssh-append-'));
  dirs.push(dir);
  return dir;
}
const configOf = (dir: string): string => path.join(dir, '.ssh', 'config');

describe('appendSshHostEntry', () => {
  it('creates ~/.ssh 0700 and the config 0600 holding exactly the planned entry', async () => {
    const file = configOf(home());
    const draft = { alias: 'lab', target: 'alice@10.0.0.5:2222', identityFile: '~/.ssh/id lab' };
    const planned = await planSshHostEntry(file, draft);
    expect(planned.text).toBe(
      'Host lab\n  HostName 10.0.0.5\n  User alice\n  Port 2222\n  IdentityFile "~/.ssh/id lab"\n',
    );
    const written = await appendSshHostEntry(file, draft);
    expect(written).toEqual(planned);
    expect(readFileSync(file, 'utf8')).toBe(planned.text);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('appends after the existing text, byte for byte, and leaves an existing file its mode', async () => {
    const file = configOf(home());
    mkdirSync(path.dirname(file), { mode: 0o755 });
    const before = '# mine\nHost old\n  HostName old.example   # keep\n  User  bob'; // no final newline
    writeFileSync(file, before, { mode: 0o644 });
    await appendSshHostEntry(file, { alias: 'pi', target: 'pi.local' });
    expect(readFileSync(file, 'utf8')).toBe(`${before}\n\nHost pi\n  HostName pi.local\n`);
    expect(statSync(file).mode & 0o777).toBe(0o644);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o755);
    await appendSshHostEntry(file, { alias: 'pi2', target: 'me@pi2.local' });
    expect(readFileSync(file, 'utf8')).toBe(
      `${before}\n\nHost pi\n  HostName pi.local\n\nHost pi2\n  HostName pi2.local\n  User me\n`,
    );
  });

  it('refuses an alias the config (or a file it includes) already has, and writes nothing', async () => {
    const dir = home();
    const file = configOf(dir);
    mkdirSync(path.dirname(file));
    writeFileSync(path.join(dir, '.ssh', 'work'), 'Host build\n  HostName build.example\n');
    const before = `Include ${path.join(dir, '.ssh', 'work')}\nHost lab other\n  HostName 10.0.0.5\n`;
    writeFileSync(file, before);
    for (const alias of ['lab', 'other', 'build']) {
      const error = await appendSshHostEntry(file, { alias, target: 'x.example' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'conflict', message: expect.stringContaining(`Host "${alias}"`) });
    }
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('refuses every value that could add a directive or change how ssh reads the line', async () => {
    const file = configOf(home());
    const bad = [
      { alias: 'lab\n  ProxyCommand touch /tmp/owned', target: 'h' },
      { alias: 'lab ProxyCommand', target: 'h' },
      { alias: '*', target: 'h' },
      { alias: 'a,b', target: 'h' },
      { alias: '!lab', target: 'h' },
      { alias: '-oProxyCommand=x', target: 'h' },
      { alias: '', target: 'h' },
      { alias: 'lab', target: 'h\n  ProxyCommand touch /tmp/owned' },
      { alias: 'lab', target: 'h ProxyCommand=x' },
      { alias: 'lab', target: 'bob\nProxyCommand@h' },
      { alias: 'lab', target: '-oProxyCommand=x' },
      { alias: 'lab', target: 'h#x' },
      { alias: 'lab', target: 'h:22\n' + 'Port 1' },
      { alias: 'lab', target: 'h', identityFile: 'id\n  ProxyCommand touch /tmp/owned' },
      { alias: 'lab', target: 'h', identityFile: 'id" ProxyCommand "x' },
      { alias: 'lab', target: 'h', identityFile: 'id\\' },
      { alias: 'lab', target: 'h', identityFile: 'id\rProxyCommand x' },
      { alias: 'lab', target: 'h', identityFile: 'id\u0085x' },
    ];
    for (const draft of bad) {
      const error = await appendSshHostEntry(file, draft).catch((e: unknown) => e);
      expect(error, JSON.stringify(draft)).toMatchObject({ code: 'invalidInput' });
    }
    expect(() => statSync(path.dirname(file))).toThrow();
  });
});
