// `npm test` on a fresh machine: one check before anything else says in one line what is missing
// (Chromium, sshd, codex, the Node runtimes) and how to install it, and fails at once.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { missingPrerequisites, prerequisitesLine } from '../../../scripts/check-test-prerequisites.mjs';
import { NODE_RUNTIME_VERSION } from '../../../scripts/fetch-node-runtimes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SCRIPT = path.join(root, 'scripts', 'check-test-prerequisites.mjs');

let scratch: string;
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

describe('the test prerequisites check', () => {
  it('names everything missing, with the one command that installs it all, in one line', () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'tether-prereq-'));
    const missing = missingPrerequisites({
      chromium: path.join(scratch, 'chromium'),
      sshd: path.join(scratch, 'sshd'),
      codex: null,
      runtimesDir: scratch,
      tools: { rg: null, unzip: null, zsh: null, fish: null },
    });
    expect(missing.map((m) => m.install)).toEqual([
      'apt-get install chromium',
      'apt-get install openssh-server',
      'apt-get install ripgrep',
      'apt-get install unzip',
      'apt-get install zsh',
      'apt-get install fish',
      'npm run codex:install',
      'npm run fetch-node-runtimes',
    ]);
    const line = prerequisitesLine(missing);
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toContain('`bash .ci/run` installs everything');
    expect(line).toContain(`Chromium (${path.join(scratch, 'chromium')})`);
  });

  it('finds nothing missing when everything is there', () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'tether-prereq-'));
    for (const name of ['chromium', 'sshd', 'codex'])
      writeFileSync(path.join(scratch, name), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(path.join(scratch, 'runtimes.json'), JSON.stringify({ version: NODE_RUNTIME_VERSION }));
    expect(
      missingPrerequisites({
        chromium: path.join(scratch, 'chromium'),
        sshd: path.join(scratch, 'sshd'),
        codex: path.join(scratch, 'codex'),
        runtimesDir: scratch,
        tools: { rg: '/usr/bin/rg', unzip: '/usr/bin/unzip', zsh: '/usr/bin/zsh', fish: '/usr/bin/fish' },
      }),
    ).toEqual([]);
  });

  it('runs first in npm test and fails it with that one line', () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'tether-prereq-'));
    const scripts = (
      JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    expect(scripts.pretest!.startsWith('node scripts/check-test-prerequisites.mjs && ')).toBe(true);
    const run = spawnSync(process.execPath, [SCRIPT], {
      encoding: 'utf8',
      env: { ...process.env, TETHER_CHROMIUM: path.join(scratch, 'no-chromium') },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('npm test needs Chromium');
  });
});
