// Builds dist/remote/, what the SSH bootstrap installs on a host: server.mjs (the exec-server CLI
// with all its JavaScript dependencies, as ESM: the entry and the chunks it imports, side by side),
// node-pty's JavaScript and its Linux prebuilt binaries, and manifest.json (sizes, SHA-256 per
// file, and the bundle's hash).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { esbuildReaderWorker } from './reader-worker-plugin.mjs';

/** node-pty's prebuilt binaries shipped: the host platforms Tether serves. */
const NODE_PTY_PLATFORMS = ['linux-x64', 'linux-arm64'];
const HASH_LENGTH = 12;
// Must stay equal to shared/remote-bundle.ts (scripts run as plain JavaScript and cannot import it).
const MANIFEST = 'manifest.json';
const ENTRY = 'server.mjs';

// Bundled code that calls require() (commander, ws) gets one bound to the bundle's own location.
const REQUIRE_BANNER =
  "import { createRequire as __tetherCreateRequire } from 'node:module';\n" +
  'const require = __tetherCreateRequire(import.meta.url);';

/**
 * node-pty is loaded at run time from ./node-pty (electron/server/reader/node-pty-module.ts); a static
 * import of it would resolve through node_modules, so one is a build error. ws's optional native
 * helpers are left out: ws falls back to JavaScript, and nothing is looked up on the host.
 */
const remoteResolution = {
  name: 'tether-remote-resolution',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^node-pty(\/|$)/ }, (args) => ({
      errors: [{ text: `${args.importer} imports ${args.path}; load node-pty through node-pty-module.ts` }],
    }));
    pluginBuild.onResolve({ filter: /^(bufferutil|utf-8-validate)$/ }, (args) => ({
      path: args.path,
      namespace: 'tether-absent',
    }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'tether-absent' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`${args.path} is not part of the Tether bundle`)});`,
      loader: 'js',
    }));
  },
};

function listFiles(dir, prefix = '') {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...listFiles(path.join(dir, entry.name), relative));
    else files.push(relative);
  }
  return files;
}

function copyNodePty(root, outdir) {
  const source = path.join(root, 'node_modules', 'node-pty');
  const target = path.join(outdir, 'node-pty');
  cpSync(path.join(source, 'package.json'), path.join(target, 'package.json'));
  cpSync(path.join(source, 'lib'), path.join(target, 'lib'), {
    recursive: true,
    filter: (file) => !file.endsWith('.test.js') && !file.endsWith('.js.map'),
  });
  for (const platform of NODE_PTY_PLATFORMS) {
    cpSync(path.join(source, 'prebuilds', platform), path.join(target, 'prebuilds', platform), {
      recursive: true,
    });
  }
}

/** The manifest of everything in `outdir` (see shared/remote-bundle.ts for the hash's definition). */
export function remoteManifest(outdir, version) {
  const bundleHash = createHash('sha256');
  const files = listFiles(outdir)
    .filter((file) => file !== MANIFEST)
    .sort()
    .map((file) => {
      const bytes = readFileSync(path.join(outdir, file));
      bundleHash.update(`${file}\0${bytes.length}\0`).update(bytes);
      return { path: file, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    });
  return { version, hash: bundleHash.digest('hex').slice(0, HASH_LENGTH), files };
}

export async function buildRemoteBundle(root, outdir = path.join(root, 'dist', 'remote')) {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: { [ENTRY.replace(/\.mjs$/, '')]: 'electron/server/daemon/remote-main.ts' },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // The bridge runs on every connect: split, it loads the entry and a few small chunks (about
    // 170 KB) instead of the whole server (1.3 MB), which cost ~40 ms of each warm connect's Node
    // start in a container. The server's chunks load with the subcommands that serve. Chunks sit
    // beside the entry: import.meta.url (the bundle's directory, node-pty's location) is the same
    // in each of them.
    splitting: true,
    chunkNames: '[name]-[hash]',
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
    banner: { js: REQUIRE_BANNER },
    define: { TETHER_BUNDLED_NODE_PTY: 'true' },
    plugins: [esbuildReaderWorker(root), remoteResolution],
  });
  copyNodePty(root, outdir);
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const manifest = remoteManifest(outdir, version);
  writeFileSync(path.join(outdir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return { manifest, bytes: manifest.files.reduce((sum, file) => sum + file.size, 0), dir: outdir };
}
