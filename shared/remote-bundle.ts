// The contract between the remote server bundle (dist/remote/, built by scripts/remote-bundle.mjs)
// and the SSH bootstrap that installs and runs it: the manifest's shape, where a bundle lives on
// a host, and the bridge's exit code for "no daemon". Pure data, so client and server agree.

/** One file of the bundle, relative to the bundle's directory (POSIX separators). */
export interface RemoteBundleFile {
  path: string;
  size: number;
  /** Lowercase hex SHA-256 of the file's bytes. */
  sha256: string;
}

/**
 * dist/remote/manifest.json. `hash` is the first 12 hex digits of a SHA-256 over every file, in
 * `files` order (sorted by path): its path, a NUL, its size in decimal, a NUL, then its bytes. The
 * manifest itself is not among the files it lists.
 */
export interface RemoteBundleManifest {
  version: string;
  hash: string;
  files: RemoteBundleFile[];
}

/** What `server.mjs version` prints, as one JSON line. */
export interface RemoteBundleIdentity {
  version: string;
  hash: string;
}

export const REMOTE_BUNDLE_MANIFEST = 'manifest.json';
/** The bundle's entry point, run as `node server.mjs <subcommand>`. */
export const REMOTE_BUNDLE_ENTRY = 'server.mjs';
/** Installed bundles live in `~/.tether/server/<version>-<hash>/` on a host. */
export const REMOTE_SERVER_ROOT = '.tether/server';
/** Length of the manifest's `hash`, in hex digits. */
export const REMOTE_BUNDLE_HASH_LENGTH = 12;
/**
 * Overrides the host's run directory (socket, pidfile, log), by default /tmp/tether-<uid>-<home key>: for
 * tests that must not meet each other's daemons, and hosts whose /tmp does not suit.
 */
export const REMOTE_RUN_DIR_ENV = 'TETHER_RUN_DIR';
/**
 * The default run directory is this followed by the user's uid, `-`, and the first 8 hex digits of
 * the sha256 of the home's path (daemon-paths.ts homeKey); a home whose one was taken records a
 * fallback in RUN_DIR_RECORD.
 */
export const REMOTE_RUN_DIR_PREFIX = '/tmp/tether-';
/** Where, under the home, the run directory a home fell back to is recorded. */
export const RUN_DIR_RECORD = '.tether/run-dir';
/** How many hex digits of the home's sha256 name its run directory. */
export const HOME_KEY_LENGTH = 8;
/** `server.mjs bridge --no-start` found no daemon: the session the client held is gone. */
export const BRIDGE_EXIT_NO_DAEMON = 90;

/** `<version>-<hash>`: the name of a bundle's install directory, socket, pidfile and log. */
export function remoteBundleId(identity: RemoteBundleIdentity): string {
  return `${identity.version}-${identity.hash}`;
}

function isFile(value: unknown): value is RemoteBundleFile {
  if (typeof value !== 'object' || value === null) return false;
  const file = value as Record<string, unknown>;
  return (
    typeof file.path === 'string' &&
    file.path !== '' &&
    !file.path.startsWith('/') &&
    !file.path.split('/').includes('..') &&
    Number.isSafeInteger(file.size) &&
    (file.size as number) >= 0 &&
    typeof file.sha256 === 'string' &&
    /^[0-9a-f]{64}$/.test(file.sha256)
  );
}

/** Validates parsed manifest JSON; throws with what is wrong (a path escaping the bundle, say). */
export function parseRemoteBundleManifest(json: unknown): RemoteBundleManifest {
  if (typeof json !== 'object' || json === null) throw new Error('bundle manifest is not an object');
  const raw = json as Record<string, unknown>;
  if (typeof raw.version !== 'string' || !/^[0-9A-Za-z.+_-]+$/.test(raw.version)) {
    throw new Error('bundle manifest has no valid `version`');
  }
  const hashPattern = new RegExp(`^[0-9a-f]{${REMOTE_BUNDLE_HASH_LENGTH}}$`);
  if (typeof raw.hash !== 'string' || !hashPattern.test(raw.hash)) {
    throw new Error(`bundle manifest \`hash\` must be ${REMOTE_BUNDLE_HASH_LENGTH} lowercase hex digits`);
  }
  if (!Array.isArray(raw.files) || raw.files.length === 0) {
    throw new Error('bundle manifest lists no files');
  }
  for (const file of raw.files) {
    if (!isFile(file)) throw new Error(`bundle manifest has an invalid file entry: ${JSON.stringify(file)}`);
  }
  return { version: raw.version, hash: raw.hash, files: raw.files as RemoteBundleFile[] };
}
