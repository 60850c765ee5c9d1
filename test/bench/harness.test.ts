// Proves the benchmark harness works end to end: `scripts/bench.mjs --quick` runs every case with
// tiny sizes into a temp folder, and each case must yield well-formed results with every measurement
// taken (bar the enumerated environment skips below). Never asserts timings.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BenchReport } from './lib/report';
import type { Measurement } from './lib/results';
import { ALL_CASES } from './cases';
import { SSH_ENVIRONMENT_ROW } from './cases/ssh';
import { FORWARD_SSH_L_ROW } from './cases/forward';
import { REPO_ROOT } from '../support/exec-servers';
import { SSHD_BINARY } from '../support/sshd';

/** The whole quick run, build of the CLI excluded, stays far below this on a loaded 2-core box. */
const QUICK_RUN_TIMEOUT_MS = 230_000;

/**
 * The only measurements the quick run may leave out, each because of the machine rather than
 * Tether, and only while that cause holds. A failed or wedged measurement is never excused.
 */
const ENVIRONMENT_SKIPS: Array<{ caseId: string; name: string; applies: () => boolean; why: string }> = [
  {
    caseId: 'echo',
    name: 'ssh -tt',
    applies: () => !existsSync(SSHD_BINARY),
    why: `the ssh comparison needs OpenSSH's server (${SSHD_BINARY}), which this machine lacks`,
  },
  {
    caseId: 'transfer',
    name: 'scp',
    applies: () => !existsSync(SSHD_BINARY),
    why: `the scp comparison needs OpenSSH's server (${SSHD_BINARY}), which this machine lacks`,
  },
  {
    caseId: 'ssh',
    name: SSH_ENVIRONMENT_ROW,
    applies: () => !existsSync(SSHD_BINARY),
    why: `SSH environments need OpenSSH's server (${SSHD_BINARY}) to connect to, which this machine lacks`,
  },
  {
    caseId: 'forward',
    name: FORWARD_SSH_L_ROW,
    applies: () => !existsSync(SSHD_BINARY),
    why: `the ssh -L comparison needs OpenSSH's server (${SSHD_BINARY}), which this machine lacks`,
  },
];

function excused(caseId: string, m: Measurement): boolean {
  const skip = ENVIRONMENT_SKIPS.find(
    (s) => m.status === 'skipped' && s.caseId === caseId && s.name === m.name && s.applies(),
  );
  if (skip) console.log(`[bench harness] ${caseId} ${m.name} skipped: ${skip.why}`);
  return skip !== undefined;
}

const outDir = mkdtempSync(path.join(os.tmpdir(), 'tether-bench-harness-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function runQuickBench(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(REPO_ROOT, 'test', 'bench', 'main.ts'), '--quick', '--out', outDir],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), QUICK_RUN_TIMEOUT_MS - 5_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('npm run bench -- --quick', () => {
  it(
    'runs every case and writes well-formed benchmarks.md and benchmarks.json',
    async () => {
      const { code, output } = await runQuickBench();
      expect(code, output).toBe(0);
      const report = JSON.parse(readFileSync(path.join(outDir, 'benchmarks.json'), 'utf8')) as BenchReport;
      expect(report.quick).toBe(true);
      expect(report.cases.map((c) => c.id)).toEqual(ALL_CASES.map((c) => c.id));
      for (const result of report.cases) {
        expect(result.error, `${result.id}: ${result.error}`).toBeUndefined();
        expect(result.measurements.length, result.id).toBeGreaterThan(0);
        expect(result.goals.length, result.id).toBeGreaterThan(0);
        for (const m of result.measurements) {
          if (m.status === 'ok') {
            expect(m.summary, `${result.id} ${m.name}`).not.toBeNull();
            const { median, min, max, runs } = m.summary!;
            expect([median, min, max].every(Number.isFinite), `${result.id} ${m.name}`).toBe(true);
            expect(min <= median && median <= max, `${result.id} ${m.name}`).toBe(true);
            expect(runs).toBeGreaterThan(0);
          } else {
            expect(m.summary).toBeNull();
            expect(
              excused(result.id, m),
              `${result.id} ${m.name} is ${m.status} (${m.note ?? 'no reason given'}), which no environment skip excuses`,
            ).toBe(true);
          }
          // Tether's own rows must deliver every byte (the direct pty reference may drop its tail).
          if (m.name.startsWith('tether '))
            expect(m.note ?? '', `${result.id} ${m.name}`).not.toMatch(/output lost/);
        }
        for (const goal of result.goals) expect(goal.measured).toBeTruthy();
      }
      const markdown = readFileSync(path.join(outDir, 'benchmarks.md'), 'utf8');
      for (const result of report.cases) expect(markdown).toContain(`## ${result.title}`);
      expect(markdown).toContain('## Goals');
    },
    QUICK_RUN_TIMEOUT_MS,
  );
});
