// What the bootstrap uploads, found on this machine: the server bundle (dist/remote, built by
// scripts/build.mjs) and the Node runtimes for hosts without a usable node (a checkout's
// .cache/node-runtimes, else the user's cache directory), fetched beforehand by
// scripts/fetch-node-runtimes.mjs or here on first need (scripts/node-runtimes.mjs does both). Both
// can be pointed elsewhere (packaged app, tests).
import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  parseRemoteBundleManifest,
  remoteBundleId,
  REMOTE_BUNDLE_ENTRY,
  REMOTE_BUNDLE_MANIFEST,
} from '../../../shared/remote-bundle';
import {
  fetchRuntimeTarball,
  NODE_RUNTIME_VERSION,
  npmRegistry,
  pinsFor,
  runtimeTarballName,
  sha256,
} from '../../../scripts/node-runtimes.mjs';
import { SshError } from '../transports/ssh/ssh-error';
import { errorMessage } from '../../../shared/error-message';

/** The installable server bundle: server.mjs, node-pty/ and manifest.json. */
export interface ServerBundle {
  dir: string;
  version: string;
  hash: string;
  /** `<version>-<hash>`: the install directory's name on the host. */
  id: string;
  /** sha256 of manifest.json: an installed copy with the same manifest is the same bundle. */
  manifestSha256: string;
}

/** One architecture's runtime: the npm tarball as fetched, and bin/node alone as xz if made. */
export interface NodeRuntime {
  version: string;
  arch: string;
  /** `node-v<version>-linux-<arch>`: its directory on the host under ~/.tether/runtime. */
  id: string;
  tgz: { file: string; sha256: string; bytes: number };
  xz?: { file: string; sha256: string; bytes: number };
}

const RuntimeFile = z.object({ file: z.string(), sha256: z.string(), bytes: z.number() });
const RuntimeIndex = z.object({
  version: z.string(),
  runtimes: z.record(z.string(), z.object({ tgz: RuntimeFile, xz: RuntimeFile.optional() })),
});
/** The index scripts/fetch-node-runtimes.mjs writes beside the tarballs. */
export const RUNTIME_INDEX_FILE = 'runtimes.json';

export interface ArtifactLocations {
  /** Directory holding server.mjs, node-pty/ and manifest.json (default: the build's dist/remote). */
  bundleDir?: string;
  /**
   * Directory holding the runtimes (and runtimes.json, when the fetch script made it), where a
   * runtime fetched on first need goes too (default: see runtimesDirectory).
   */
  runtimesDir?: string;
  /** The npm registry to fetch a missing runtime from (default: the user's npm config's, see npmRegistry). */
  registry?: string;
}

/** The first of `relatives` that exists under this module's folder or one of its ancestors. */
function findUpward(relatives: string[]): string | null {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    for (const relative of relatives) {
      const candidate = path.join(dir, relative);
      if (existsSync(candidate)) return candidate;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** sha256 of a file, in hex (one implementation, shared with the fetch script). */
export const sha256File = sha256;

export async function loadServerBundle(locations: ArtifactLocations): Promise<ServerBundle> {
  const found = findUpward(
    [path.join('dist', 'remote'), 'remote'].map((d) => path.join(d, REMOTE_BUNDLE_MANIFEST)),
  );
  const dir = locations.bundleDir ?? process.env.TETHER_REMOTE_BUNDLE_DIR ?? (found && path.dirname(found));
  const manifestFile = dir ? path.join(dir, REMOTE_BUNDLE_MANIFEST) : null;
  if (
    !dir ||
    !manifestFile ||
    !existsSync(manifestFile) ||
    !existsSync(path.join(dir, REMOTE_BUNDLE_ENTRY))
  ) {
    throw new SshError(
      'hostSetup',
      'installing',
      'The server bundle to install on SSH hosts (dist/remote) is missing; run "npm run build".',
    );
  }
  const manifest = parseRemoteBundleManifest(JSON.parse(readFileSync(manifestFile, 'utf8')));
  return {
    dir,
    version: manifest.version,
    hash: manifest.hash,
    id: remoteBundleId(manifest),
    manifestSha256: await sha256File(manifestFile),
  };
}

/**
 * Where the runtimes are and fetched ones go: the locations' own, TETHER_NODE_RUNTIMES_DIR, a
 * Tether checkout's .cache/node-runtimes (where `npm run fetch-node-runtimes` puts them), else
 * the user's cache directory ($XDG_CACHE_HOME or ~/.cache, then tether/node-runtimes).
 */
export function runtimesDirectory(locations: ArtifactLocations): { dir: string; checkout: boolean } {
  const given = locations.runtimesDir ?? process.env.TETHER_NODE_RUNTIMES_DIR;
  if (given) return { dir: given, checkout: false };
  const fetched = findUpward([path.join('.cache', 'node-runtimes')]);
  if (fetched) return { dir: fetched, checkout: true };
  const pins = findUpward([path.join('scripts', 'node-runtime-pins.json')]);
  if (pins)
    return { dir: path.join(path.dirname(path.dirname(pins)), '.cache', 'node-runtimes'), checkout: true };
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return { dir: path.join(cache, 'tether', 'node-runtimes'), checkout: false };
}

/** `node-v<version>-linux-<arch>`: a runtime's directory name on the host. */
export const nodeRuntimeId = (version: string, arch: string): string => `node-v${version}-linux-${arch}`;

/** The runtime for `arch`, or null when none is on this machine (ensureNodeRuntime fetches it). */
export function findNodeRuntime(locations: ArtifactLocations, arch: string): NodeRuntime | null {
  const { dir } = runtimesDirectory(locations);
  if (existsSync(path.join(dir, RUNTIME_INDEX_FILE))) {
    const index = RuntimeIndex.parse(JSON.parse(readFileSync(path.join(dir, RUNTIME_INDEX_FILE), 'utf8')));
    const entry = index.runtimes[arch];
    if (entry) {
      const local = <T extends { file: string }>(f: T): T => ({ ...f, file: path.join(dir, f.file) });
      return {
        version: index.version,
        arch,
        id: nodeRuntimeId(index.version, arch),
        tgz: local(entry.tgz),
        ...(entry.xz ? { xz: local(entry.xz) } : {}),
      };
    }
  }
  // A tarball fetched on first need: it was checked against the pins before it was put in place,
  // and the host checks the upload against the pinned sha256 again.
  const tgz = path.join(dir, runtimeTarballName(arch));
  if (!existsSync(tgz)) return null;
  let pinned: { tgzSha256: string };
  try {
    pinned = pinsFor(arch);
  } catch {
    return null;
  }
  return {
    version: NODE_RUNTIME_VERSION,
    arch,
    id: nodeRuntimeId(NODE_RUNTIME_VERSION, arch),
    tgz: { file: tgz, sha256: pinned.tgzSha256, bytes: statSync(tgz).size },
  };
}

/** Fetches in flight in this process, by directory and architecture: concurrent connects share one. */
const fetching = new Map<string, Promise<NodeRuntime>>();

/**
 * The runtime for `arch`: the one on this machine, or else fetched now from the npm registry into
 * the runtimes directory (`onProgress` follows the download). Throws an SshError that names the
 * command to pre-fetch it when the registry cannot be reached or what it serves is refused.
 */
export function ensureNodeRuntime(
  locations: ArtifactLocations,
  arch: string,
  onProgress: (bytes: number, total: number | null, from: string) => void,
): Promise<NodeRuntime> {
  const found = findNodeRuntime(locations, arch);
  if (found) return Promise.resolve(found);
  const { dir, checkout } = runtimesDirectory(locations);
  const key = `${dir}\0${arch}`;
  const running = fetching.get(key);
  if (running) return running;
  const registry = locations.registry ?? npmRegistry();
  const pending = (async (): Promise<NodeRuntime> => {
    try {
      await fetchRuntimeTarball({
        arch,
        dir,
        registry,
        onProgress: (bytes, total) => onProgress(bytes, total, registry),
      });
    } catch (error) {
      const command = checkout
        ? '"npm run fetch-node-runtimes" in the Tether checkout'
        : `"npm pack node-linux-${arch}@${NODE_RUNTIME_VERSION} --pack-destination ${dir}"`;
      throw new SshError(
        'hostSetup',
        'installing',
        `Could not fetch the Node runtime for linux-${arch} (node-linux-${arch}@${NODE_RUNTIME_VERSION}) ` +
          `from ${registry}: ${errorMessage(error)}. Nothing was kept. To fetch it beforehand, run ${command} ` +
          'on a machine that reaches the npm registry.',
      );
    }
    const runtime = findNodeRuntime(locations, arch);
    if (!runtime)
      throw new SshError('hostSetup', 'installing', `The fetched Node runtime is missing from ${dir}.`);
    return runtime;
  })().finally(() => fetching.delete(key));
  fetching.set(key, pending);
  return pending;
}
