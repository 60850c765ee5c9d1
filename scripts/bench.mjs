#!/usr/bin/env node
// `npm run bench [-- --quick] [-- --case throughput,echo]`: builds the CLI the benchmarks spawn,
// then runs the TypeScript harness (test/bench/main.ts) under tsx, passing the arguments through.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status ?? 1;

const built = run([path.join(root, 'scripts', 'build.mjs')]);
if (built !== 0) process.exit(built);
process.exit(run(['--import', 'tsx', path.join(root, 'test', 'bench', 'main.ts'), ...process.argv.slice(2)]));
