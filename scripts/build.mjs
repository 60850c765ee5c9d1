#!/usr/bin/env node
// Builds everything that runs outside of the test runner: the `tether` CLI (exec-server, run, web),
// the Electron main and preload bundles, the renderer (via Vite), and the server bundle installed
// on SSH hosts (dist/remote/, scripts/remote-bundle.mjs) into dist/.
import { build } from 'esbuild';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { esbuildReaderWorker } from './reader-worker-plugin.mjs';
import { buildRemoteBundle } from './remote-bundle.mjs';
import { SHELL_SCRIPT_LOADERS } from './shell-scripts-plugin.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  packages: 'external',
  logLevel: 'warning',
  absWorkingDir: root,
  // The exec-server carries its reader thread's code inlined (see electron/server/reader/reader-thread.ts).
  plugins: [esbuildReaderWorker(root)],
  // The app carries the shell integration's scripts as text (electron/app/processes/shell-integration.ts).
  loader: SHELL_SCRIPT_LOADERS,
};

// Strict as the ES module it was (the directive must come first), and import.meta.url of the
// CommonJS CLI bundle: its own file.
const CLI_BUNDLE_BANNER =
  '"use strict";\n' + "const __tetherBundleUrl = require('node:url').pathToFileURL(__filename).href;";

const only = process.argv.slice(2);
const want = (name) => only.length === 0 || only.includes(name);

if (only.length === 0) rmSync(outdir, { recursive: true, force: true });

const jobs = [];
if (want('cli')) {
  jobs.push(
    build({
      ...common,
      entryPoints: ['electron/cli/main.ts'],
      outfile: 'dist/cli-main.cjs',
      // A CommonJS script: the launcher compiles it as a vm.Script with its V8 code cache
      // (electron/cli/code-cache.ts), which ES modules cannot have on Node 20.
      format: 'cjs',
      // Its JavaScript dependencies inlined: each `tether` command (cp above all) used to spend a
      // third of a second of CPU resolving and compiling zod's, ws's and commander's many modules
      // before doing anything. node-pty stays out (native, loaded at run time); ws's optional
      // native helpers stay out too (ws falls back to JavaScript when they are missing).
      packages: undefined,
      external: ['node-pty', 'bufferutil', 'utf-8-validate'],
      // The sources find files beside the bundle from import.meta.url.
      define: { 'import.meta.url': '__tetherBundleUrl' },
      banner: { js: CLI_BUNDLE_BANNER },
    }),
    // What bin/tether.js runs: loads the bundle above with its code cache. Node's modules only.
    build({
      ...common,
      entryPoints: ['electron/cli/launcher.ts'],
      outfile: 'dist/cli.js',
      format: 'esm',
      sourcemap: false,
      plugins: [],
    }),
  );
}
if (want('electron') && existsSync(path.join(root, 'electron/main/main.ts'))) {
  jobs.push(
    build({
      ...common,
      entryPoints: ['electron/main/main.ts'],
      outfile: 'dist/electron/main.js',
      format: 'esm',
      external: ['electron'],
    }),
  );
}
if (want('electron') && existsSync(path.join(root, 'electron/preload/preload.ts'))) {
  // Sandboxed preloads must be a single CommonJS file that requires nothing but `electron`.
  jobs.push(
    build({
      ...common,
      packages: undefined,
      entryPoints: ['electron/preload/preload.ts'],
      outfile: 'dist/electron/preload.cjs',
      format: 'cjs',
      platform: 'node',
      external: ['electron'],
    }),
  );
}
if (want('remote')) jobs.push(buildRemoteBundle(root));
await Promise.all(jobs);

if (want('renderer') && existsSync(path.join(root, 'renderer/index.html'))) {
  const { build: viteBuild } = await import('vite');
  await viteBuild({ configFile: path.join(root, 'renderer/vite.config.ts'), logLevel: 'warn' });
}
