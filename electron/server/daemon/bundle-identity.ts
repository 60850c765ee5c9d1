// Which bundle this server is: the manifest.json beside server.mjs (in dist/remote/, or installed
// in ~/.tether/server/<id>/ on a host) names its version and hash, which name its socket and log.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  parseRemoteBundleManifest,
  REMOTE_BUNDLE_ENTRY,
  REMOTE_BUNDLE_MANIFEST,
  type RemoteBundleIdentity,
} from '../../../shared/remote-bundle';
import { TETHER_VERSION } from '../../../shared/version';
import { StartupError } from '../server-options';
import { errorMessage } from '../../../shared/error-message';

/** The directory of the running bundle (server.mjs and the chunks it imports all sit in it). */
export function bundleDir(): string {
  return path.dirname(fileURLToPath(import.meta.url));
}

/** server.mjs itself, as a daemon is started from it. */
export function bundleEntry(): string {
  return path.join(bundleDir(), REMOTE_BUNDLE_ENTRY);
}

export function readBundleIdentity(dir: string = bundleDir()): RemoteBundleIdentity {
  const file = path.join(dir, REMOTE_BUNDLE_MANIFEST);
  let manifest;
  try {
    manifest = parseRemoteBundleManifest(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    throw new StartupError(`cannot read the bundle manifest ${file}: ${errorMessage(error)}`);
  }
  if (manifest.version !== TETHER_VERSION) {
    throw new StartupError(`${file} is for Tether ${manifest.version}, but this server is ${TETHER_VERSION}`);
  }
  return { version: manifest.version, hash: manifest.hash };
}
