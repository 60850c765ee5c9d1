#!/usr/bin/env node
// `npm run fuzz`: the hostile-server fuzz rounds of test/integration/client/hostile-fuzz.test.ts,
// run long. TETHER_FUZZ_SECONDS (default 300) bounds the run, TETHER_FUZZ_SEED replays a printed
// seed. Builds first, as the suite spawns dist/'s `tether run`.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = process.env.TETHER_FUZZ_SECONDS ?? '300';
const run = (args, env = process.env) =>
  spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env }).status ?? 1;

const built = run([path.join(root, 'scripts', 'build.mjs')]);
if (built !== 0) process.exit(built);
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
process.exit(
  run(
    [
      vitest,
      'run',
      'test/integration/client/hostile-fuzz.test.ts',
      // The long run is one test; vitest's own timeout must not cut it short.
      `--testTimeout=${(Number(seconds) + 120) * 1000}`,
      ...process.argv.slice(2),
    ],
    { ...process.env, TETHER_FUZZ_SECONDS: seconds },
  ),
);
