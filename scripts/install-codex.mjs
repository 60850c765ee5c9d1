#!/usr/bin/env node
// Installs OpenAI's `codex` CLI (the reference exec-server peer for conformance, chaos and bench
// runs) into the git-ignored .cache/codex, so ordinary users never download its ~430 MB.
// Prints the absolute path of the native `codex` binary on stdout.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODEX_VERSION = '0.171.0';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const prefix = path.join(root, '.cache', 'codex', CODEX_VERSION);

/** Finds the native binary (vendor/<triple>/bin/codex) inside the installed package tree. */
function findNativeBinary(dir, depth = 0) {
  if (depth > 8 || !existsSync(dir)) return null;
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    const st = statSync(full);
    if (st.isDirectory()) {
      const hit = findNativeBinary(full, depth + 1);
      if (hit) return hit;
    } else if (entry === 'codex' && path.basename(dir) === 'bin' && dir.includes('vendor')) {
      return full;
    }
  }
  return null;
}

export function codexBinaryPath() {
  return findNativeBinary(path.join(prefix, 'node_modules'));
}

function install() {
  let bin = codexBinaryPath();
  if (!bin) {
    mkdirSync(prefix, { recursive: true });
    process.stderr.write(`installing @openai/codex@${CODEX_VERSION} into ${prefix} ...\n`);
    execFileSync(
      'npm',
      [
        'install',
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--prefix',
        prefix,
        `@openai/codex@${CODEX_VERSION}`,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    bin = codexBinaryPath();
  }
  if (!bin) throw new Error(`codex binary not found under ${prefix} after install`);
  const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  if (!version.includes(CODEX_VERSION)) throw new Error(`expected codex ${CODEX_VERSION}, got "${version}"`);
  process.stdout.write(`${bin}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) install();
