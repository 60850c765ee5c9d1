// Child processes the bench starts itself (helper servers, direct-spawn ceilings): spawned with
// pipes, their first stdout line read with a timeout, and stopped by pid (SIGTERM, then SIGKILL).
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

/** Grace between SIGTERM and SIGKILL when stopping a helper. */
const STOP_GRACE_MS = 3_000;
/** How long a helper server gets to print its URL. */
const HELPER_READY_TIMEOUT_MS = 15_000;

const BENCH_LIB_DIR = path.dirname(fileURLToPath(import.meta.url));

export interface Helper {
  child: ChildProcess;
  pid: number;
  stop(): Promise<void>;
}

export function startHelper(command: string, args: string[], options: SpawnOptions = {}): Helper {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], ...options });
  child.stdin?.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    }
  };
  return { child, pid: child.pid ?? -1, stop };
}

/** Starts one of the bench's own TypeScript helper scripts (in this folder) under tsx. */
export function startTsHelper(script: string, args: string[]): Helper {
  return startHelper(process.execPath, ['--import', 'tsx', path.join(BENCH_LIB_DIR, script), ...args], {
    cwd: path.resolve(BENCH_LIB_DIR, '..', '..', '..'),
  });
}

/** The first line the helper prints on stdout (its URL), or a rejection after `timeoutMs`. */
export function firstLine(helper: Helper, timeoutMs = HELPER_READY_TIMEOUT_MS): Promise<string> {
  const { child } = helper;
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (d: string) => (stderr = (stderr + d).slice(-2_000)));
    const rl = readline.createInterface({ input: child.stdout! });
    const timer = setTimeout(() => {
      rl.close();
      reject(new Error(`helper printed nothing within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    rl.once('line', (line) => {
      clearTimeout(timer);
      rl.close();
      resolve(line.trim());
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`helper exited with ${code}: ${stderr}`));
    });
  });
}

/** Rejects with `what` timed out unless `promise` settles within `ms`. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BenchTimeoutError(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export class BenchTimeoutError extends Error {
  readonly code = 'BENCH_TIMEOUT';
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
