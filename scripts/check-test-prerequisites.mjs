#!/usr/bin/env node
// Run first by `npm test`: checks once that what the suites need outside npm is there (Debian's
// Chromium for the e2e tests, OpenSSH's sshd for the SSH tests, podman with runc and busybox-static for
// the container tests, ripgrep, unzip, zsh and fish, the pinned codex binary for the
// conformance and chaos suites, the Node runtimes the SSH tests upload), and if not, fails at once
// with one line saying what is missing and how to install it, instead of failing test by test.
import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { codexBinaryPath } from './install-codex.mjs';
import { NODE_RUNTIME_VERSION } from './fetch-node-runtimes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The program's path on PATH, or null. */
function onPath(program) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, program);
    if (executable(file)) return file;
  }
  return null;
}

function runtimesFetched(dir) {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'runtimes.json'), 'utf8')).version === NODE_RUNTIME_VERSION;
  } catch {
    return false;
  }
}

/** What is missing, each with the command that installs it; [] when everything is there. */
export function missingPrerequisites({
  chromium = process.env.TETHER_CHROMIUM ?? '/usr/bin/chromium',
  sshd = '/usr/sbin/sshd',
  codex = codexBinaryPath(),
  runtimesDir = path.join(root, '.cache', 'node-runtimes'),
  // Find in files is tested with ripgrep; the folder-download tests read zips with unzip; shell
  // integration with the real zsh and fish (bash is there already).
  tools = { rg: onPath('rg'), unzip: onPath('unzip'), zsh: onPath('zsh'), fish: onPath('fish') },
  // The container tests run real podman containers (runc) from images built with busybox-static.
  containers = { podman: '/usr/bin/podman', runc: '/usr/sbin/runc', busybox: '/bin/busybox' },
} = {}) {
  const missing = [];
  if (!executable(chromium))
    missing.push({ what: `Chromium (${chromium})`, install: 'apt-get install chromium' });
  if (!executable(sshd)) missing.push({ what: `sshd (${sshd})`, install: 'apt-get install openssh-server' });
  if (!tools.rg) missing.push({ what: 'ripgrep (rg)', install: 'apt-get install ripgrep' });
  if (!tools.unzip) missing.push({ what: 'unzip', install: 'apt-get install unzip' });
  if (!tools.zsh) missing.push({ what: 'zsh', install: 'apt-get install zsh' });
  if (!tools.fish) missing.push({ what: 'fish', install: 'apt-get install fish' });
  if (!executable(containers.podman)) missing.push({ what: 'podman', install: 'apt-get install podman' });
  if (!executable(containers.runc)) missing.push({ what: 'runc', install: 'apt-get install runc' });
  if (!executable(containers.busybox))
    missing.push({ what: 'busybox (static)', install: 'apt-get install busybox-static' });
  if (!codex || !executable(codex))
    missing.push({ what: 'the pinned codex binary', install: 'npm run codex:install' });
  if (!runtimesFetched(runtimesDir))
    missing.push({ what: 'the Node runtimes for SSH hosts', install: 'npm run fetch-node-runtimes' });
  return missing;
}

/** The one line `npm test` prints when something is missing. */
export function prerequisitesLine(missing) {
  return (
    `npm test needs ${missing.map((m) => m.what).join(', ')}: \`bash .ci/run\` installs everything ` +
    `(as root, on Debian) and runs the tests; or install them yourself: ${missing.map((m) => m.install).join('; ')}.`
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const missing = missingPrerequisites();
  if (missing.length > 0) {
    console.error(prerequisitesLine(missing));
    process.exit(1);
  }
}
