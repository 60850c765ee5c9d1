// The host picker's list through a real AppService and real `ssh -G`: Host entries of a temp
// ssh config, Includes (globbed, nested, inside `Host *`) followed, wildcard and negated patterns
// and Match blocks skipped, each alias with what ssh resolves for it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './app-harness';

let home: string;
let harness: Harness;

beforeAll(async () => {
  home = mkdtempSync(path.join(os.tmpdir(), 'tether-ssh-home-'));
  const dotSsh = path.join(home, '.ssh');
  mkdirSync(path.join(dotSsh, 'conf.d'), { recursive: true, mode: 0o700 });
  writeFileSync(
    path.join(dotSsh, 'config'),
    [
      // Absolute, because ssh itself resolves relative Includes under the passwd home's ~/.ssh.
      `Include ${path.join(dotSsh, 'conf.d', '*.conf')}`,
      'Host lab',
      '  HostName 127.0.0.1',
      '  User alice',
      '  Port 2222',
      'Host beta gamma',
      '  HostName beta.example.test',
      '  ProxyJump lab',
      'Host *.corp !bad.corp bastion?',
      '  User corp',
      'Match host nowhere',
      '  User matched',
      'Host *',
      '  ServerAliveInterval 30',
      `  Include ${path.join(dotSsh, 'late')}`,
      'Host only-for-one',
      `  Include ${path.join(dotSsh, 'conditional')}`,
      '',
    ].join('\n'),
  );
  writeFileSync(
    path.join(dotSsh, 'conf.d', 'a.conf'),
    [
      `Include ${path.join(dotSsh, 'nested')}`,
      'Host delta',
      '  HostName delta.example.test',
      '  ProxyCommand nc %h %p',
      '',
    ].join('\n'),
  );
  writeFileSync(path.join(dotSsh, 'late'), 'Host zeta\n  Port 2200\n');
  writeFileSync(path.join(dotSsh, 'conditional'), 'Host not-for-all\n');
  writeFileSync(path.join(dotSsh, 'conf.d', 'ignored.txt'), 'Host not-included\n');
  writeFileSync(path.join(dotSsh, 'nested'), 'Host epsilon\n  HostName 10.1.2.3\n  User eve\n');
  harness = await createHarness({
    autoConnect: false,
    sshConfig: { file: path.join(dotSsh, 'config'), explicit: true },
  });
});

afterAll(async () => {
  await harness?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('ssh.hosts', () => {
  it('lists the concrete Host aliases, Includes followed, each resolved by ssh -G', async () => {
    const hosts = await harness.invoke('ssh.hosts', {});
    expect(hosts.map((h) => h.alias)).toEqual([
      'epsilon',
      'delta',
      'lab',
      'beta',
      'gamma',
      'zeta',
      'only-for-one',
    ]);
    const byAlias = Object.fromEntries(hosts.map((h) => [h.alias, h]));
    expect(byAlias.lab).toMatchObject({ user: 'alice', hostname: '127.0.0.1', port: 2222, problem: null });
    expect(byAlias.lab?.proxyJump).toBeNull();
    expect(byAlias.gamma).toMatchObject({ hostname: 'beta.example.test', port: 22, proxyJump: 'lab' });
    expect(byAlias.delta).toMatchObject({ hostname: 'delta.example.test', proxyCommand: 'nc %h %p' });
    expect(byAlias.epsilon).toMatchObject({ user: 'eve', hostname: '10.1.2.3' });
    expect(byAlias.zeta).toMatchObject({ hostname: 'zeta', port: 2200 });
  });

  it('lists nothing (and no error) when there is no ssh config', async () => {
    const empty = await createHarness({
      autoConnect: false,
      sshConfig: { file: path.join(home, 'missing', 'config'), explicit: true },
    });
    try {
      expect(await empty.invoke('ssh.hosts', {})).toEqual([]);
    } finally {
      await empty.close();
    }
  });
});
