// What the bootstrap uploads, found on this machine: the server bundle (dist/remote, built by
// scripts/build.mjs) and the Node runtimes for hosts without a usable node (.cache/node-runtimes,
// fetched by scripts/fetch-node-runtimes.mjs). Both can be pointed elsewhere (packaged app).
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  parseRemoteBundleManifest,
  remoteBundleId,
  REMOTE_BUNDLE_ENTRY,
  REMOTE_BUNDLE_MANIFEST,
} from '../../../shared/remote-bundle';
import { SshError } from '../transports/ssh/ssh-error';

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
  /** Directory holding runtimes.json and the runtimes (default: the checkout's .cache/node-runtimes). */
  runtimesDir?: string;
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

export function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

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

/** The runtime for `arch`, or null when none was fetched (the error then says how to fetch it). */
export function findNodeRuntime(locations: ArtifactLocations, arch: string): NodeRuntime | null {
  const dir =
    locations.runtimesDir ??
    process.env.TETHER_NODE_RUNTIMES_DIR ??
    findUpward([path.join('.cache', 'node-runtimes')]);
  if (!dir || !existsSync(path.join(dir, RUNTIME_INDEX_FILE))) return null;
  const index = RuntimeIndex.parse(JSON.parse(readFileSync(path.join(dir, RUNTIME_INDEX_FILE), 'utf8')));
  const entry = index.runtimes[arch];
  if (!entry) return null;
  const local = <T extends { file: string }>(f: T): T => ({ ...f, file: path.join(dir, f.file) });
  return {
    version: index.version,
    arch,
    id: `node-v${index.version}-linux-${arch}`,
    tgz: local(entry.tgz),
    ...(entry.xz ? { xz: local(entry.xz) } : {}),
  };
}
