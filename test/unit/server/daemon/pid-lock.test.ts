// The pid lock under contention, with real processes: claimants that claim, hold and release it in a
// loop never hold it two at a time (a claimant that met the file between its creation and its pid
// being written took it for stale once, and both started a daemon); a stale file is taken over, a
// live owner's is not.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { claimPidFile, releasePidFile } from '../../../../electron/server/daemon/pid-lock';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tether-pid-lock-'));
  dirs.push(dir);
  return dir;
}

const CLAIMANT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pid-lock-claimant.ts');

function runClaimant(
  lock: string,
  holder: string,
  rounds: number,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLAIMANT, lock, holder, String(rounds)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out: out.trim() }));
  });
}

describe('claimPidFile', () => {
  it('is held by one claimant at a time while four race for it', async () => {
    const dir = tempDir();
    const lock = path.join(dir, 'start.lock');
    const holder = path.join(dir, 'holder');
    const results = await Promise.all([1, 2, 3, 4].map(() => runClaimant(lock, holder, 3000)));
    for (const result of results) expect(result).toMatchObject({ code: 0 });
    // Each claimant did get the lock, so they did contend.
    for (const result of results) expect(Number(result.out)).toBeGreaterThan(0);
  }, 60_000);

  it('takes over a stale file and leaves a live owner’s alone', () => {
    const dir = tempDir();
    const lock = path.join(dir, 'x.pid');
    writeFileSync(lock, '999999999\n');
    expect(claimPidFile(lock)).toEqual({ claimed: true });
    writeFileSync(lock, `${process.ppid}\n`);
    expect(claimPidFile(lock)).toEqual({ claimed: false, ownerPid: process.ppid });
    // Release never removes another's claim.
    releasePidFile(lock);
    expect(claimPidFile(lock)).toEqual({ claimed: false, ownerPid: process.ppid });
  });
});
