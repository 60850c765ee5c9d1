// dist/cli.js, what bin/tether.js runs: compiles the CLI bundle (dist/cli-main.cjs, built from
// main.ts) with its V8 code cache (code-cache.ts) and runs it. Only Node's own modules here: this
// file is loaded without any cache.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyClientHeapPolicy } from '../client/heap-policy';
import { compileBundle } from './code-cache';

/** After this long a command still running has compiled what its start needs: the cache is written then. */
const SAVE_AFTER_MS = 2_000;

const bundleFile = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cli-main.cjs');
// Every command but the server is a client or hosts the app's (client/heap-policy.ts). Set before
// the cache is read: V8 accepts a code cache only under the flags it was written with.
if (process.argv[2] !== 'exec-server') applyClientHeapPolicy();
const bundle = compileBundle(bundleFile, { command: process.argv[2] });
if (bundle.outcome !== 'used' && bundle.outcome !== 'off') {
  // At exit (process.exit included) or, for a command that runs on, after a while: once.
  process.once('exit', () => bundle.save());
  setTimeout(() => bundle.save(), SAVE_AFTER_MS).unref();
}
const module = { exports: {} };
bundle.run(module.exports, createRequire(bundleFile), module, bundleFile, path.dirname(bundleFile));
