// `npm run bench` entry: runs the selected cases (all by default) with full or quick sizes, prints
// the result table, and writes benchmarks.md + benchmarks.json (to docs/ unless --out says otherwise).
// Usage: node --import tsx test/bench/main.ts [--quick] [--case throughput,echo] [--out DIR]
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { ALL_CASES, BUDGETS } from './cases';
import type { BenchContext } from './lib/bench-case';
import { FULL_CONFIG, QUICK_CONFIG } from './lib/config';
import { machineInfo } from './lib/machine';
import { renderMarkdown, renderTable, type BenchReport } from './lib/report';
import { CaseRecorder } from './lib/results';
import { elapsedMs } from './lib/stats';
import { REPO_ROOT } from '../support/exec-servers';
import { errorMessage } from '../../shared/error-message';
import { applyClientHeapPolicy } from '../../electron/client/heap-policy';

interface Options {
  quick: boolean;
  case?: string;
  out: string;
  merge: boolean;
}

const program = new Command()
  .name('bench')
  .description('Tether side by side with codex, ssh and the machine ceilings')
  .option('--quick', 'tiny sizes, one run each: proves the harness works, figures mean nothing', false)
  .option('--case <ids>', `comma-separated case ids (${ALL_CASES.map((c) => c.id).join(', ')})`)
  .option('--out <dir>', 'where benchmarks.md and benchmarks.json are written', path.join(REPO_ROOT, 'docs'))
  .option(
    '--merge',
    "keep the cases not run now from the benchmarks.json already in --out (with --case: one case's figures into the full report)",
    false,
  )
  .parse();
const options = program.opts<Options>();
// The cases' in-process clients stand for the app's main process, which runs with this policy.
applyClientHeapPolicy();

const wanted = options.case?.split(',').map((id) => id.trim()) ?? ALL_CASES.map((c) => c.id);
const unknown = wanted.filter((id) => !ALL_CASES.some((c) => c.id === id));
if (unknown.length > 0) {
  console.error(`unknown case(s): ${unknown.join(', ')}; known: ${ALL_CASES.map((c) => c.id).join(', ')}`);
  process.exit(2);
}

const started = process.hrtime.bigint();
const workDir = mkdtempSync(path.join(os.tmpdir(), 'tether-bench-'));
const context: BenchContext = {
  config: options.quick ? QUICK_CONFIG : FULL_CONFIG,
  workDir,
  log: (line) => process.stderr.write(`${line}\n`),
};
const machine = machineInfo();
const results = [];
try {
  for (const benchCase of ALL_CASES.filter((c) => wanted.includes(c.id))) {
    context.log(`[bench] ${benchCase.title} (${((elapsedMs(started) / 1000) | 0).toString()} s elapsed)`);
    const recorder = new CaseRecorder(benchCase.id, benchCase.title);
    const caseStart = process.hrtime.bigint();
    try {
      await benchCase.run(context, recorder);
    } catch (error) {
      recorder.result.error = errorMessage(error);
      context.log(`[bench] ${benchCase.id} failed: ${recorder.result.error}`);
    }
    recorder.result.durationMs = elapsedMs(caseStart);
    results.push(recorder.result);
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}

const report: BenchReport = {
  generatedAt: machine.date,
  command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
  quick: options.quick,
  durationMs: elapsedMs(started),
  machine,
  cases: results,
};
const previousFile = path.join(options.out, 'benchmarks.json');
if (options.merge && existsSync(previousFile)) {
  const previous = JSON.parse(readFileSync(previousFile, 'utf8')) as BenchReport;
  const byId = new Map([...previous.cases, ...results].map((c) => [c.id, c]));
  report.cases = ALL_CASES.flatMap((c) => byId.get(c.id) ?? []);
  report.keptFrom = previous.keptFrom ?? previous.generatedAt;
  // The kept cases ran on the earlier run's machine reading (each keeps its own case time).
  report.machine = previous.machine;
}
console.log(renderTable(report));
mkdirSync(options.out, { recursive: true });
writeFileSync(path.join(options.out, 'benchmarks.md'), renderMarkdown(report, BUDGETS));
writeFileSync(path.join(options.out, 'benchmarks.json'), `${JSON.stringify(report, null, 2)}\n`);
console.log(
  `\nwrote ${path.join(options.out, 'benchmarks.md')} and benchmarks.json in ${(report.durationMs / 1000).toFixed(1)} s`,
);
// Client libraries may keep timers (keepalive, health probes) after close; the report is written.
process.exit(0);
