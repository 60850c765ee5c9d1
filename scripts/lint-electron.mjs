#!/usr/bin/env node
// Runs Electronegativity, the Electron security linter, over the Electron host's sources, offline:
// its translation download is answered locally (it falls back to its bundled English) and the one
// check that needs the network is excluded in the config. Every finding must be fixed or justified
// in electronegativity.json (by check id and file); an unjustified finding fails the run.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = JSON.parse(readFileSync(path.join(root, 'electronegativity.json'), 'utf8'));
const require = createRequire(import.meta.url);
const linterDir = path.dirname(require.resolve('@doyensec/electronegativity/package.json'));

// The linter fetches updated translations with `got` before every run; never let it reach the
// network (tests and CI run offline), so that request fails at once and the bundled text is used.
const gotPath = require.resolve('got', { paths: [linterDir] });
require.cache[gotPath] = {
  id: gotPath,
  filename: gotPath,
  loaded: true,
  exports: () => Promise.reject(new Error('offline: Electronegativity translations are not downloaded')),
};
const run = require(linterDir);
const electronVersion = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).devDependencies
  .electron;

const quietLog = console.log;
console.log = (...args) => {
  if (!String(args[0]).startsWith('Could not retrieve updated translations')) quietLog(...args);
};

const findings = [];
for (const input of config.inputs) {
  const result = await run(
    {
      input: path.join(root, input),
      excludeFromScan: Object.keys(config.excludedChecks),
      electronVersionOverride: electronVersion,
      isVerbose: false,
    },
    false,
  );
  if (result.errors.length > 0) {
    console.error(`electronegativity could not parse some files of ${input}:`, result.errors);
    process.exit(1);
  }
  findings.push(...result.issues);
}
console.log = quietLog;

const justifiedBy = (finding) =>
  config.justified.find(
    (j) => j.check === finding.id && j.file === path.relative(root, finding.file).split(path.sep).join('/'),
  );
const open = findings.filter((f) => !justifiedBy(f));
const used = new Set(findings.map(justifiedBy).filter(Boolean));
for (const stale of config.justified.filter((j) => !used.has(j))) {
  console.warn(`electronegativity: justification no longer needed: ${stale.check} in ${stale.file}`);
}
if (open.length > 0) {
  for (const f of open) {
    const where = `${path.relative(root, f.file)}:${f.location?.line ?? '?'}`;
    console.error(`${f.id} ${where} [${f.severity?.name}/${f.confidence?.name}] ${f.description}`);
  }
  console.error(
    `electronegativity: ${open.length} finding(s) neither fixed nor justified in electronegativity.json`,
  );
  process.exit(1);
}
console.log(
  `electronegativity: ${findings.length} finding(s) in ${config.inputs.join(', ')}, all justified in electronegativity.json`,
);
