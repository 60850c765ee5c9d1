// The "Node reads it directly" ceilings: the same process run by this Node process with a pipe or a
// pty (node-pty), counting bytes until it exits; and spawning many short processes at once.
import { spawn } from 'node:child_process';
import * as pty from 'node-pty';
import { elapsedMs } from './stats';

export const PTY_SIZE = { cols: 120, rows: 40 };

/** Runs argv with its stdout on a pipe; resolves with the bytes read and the elapsed ms. */
export function readPipeDirect(
  argv: string[],
  env: Record<string, string>,
): Promise<{ bytes: number; ms: number }> {
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'ignore'], env });
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
    child.once('error', reject);
    child.once('close', () => resolve({ bytes, ms: elapsedMs(start) }));
  });
}

/**
 * Runs argv on a pty; resolves once it exited and `expectedBytes` arrived (node-pty may report the
 * exit before the last output is read).
 */
export function readPtyDirect(
  argv: string[],
  env: Record<string, string>,
  expectedBytes: number,
): Promise<{ bytes: number; ms: number }> {
  const start = process.hrtime.bigint();
  return new Promise((resolve) => {
    const term = pty.spawn(argv[0]!, argv.slice(1), { ...PTY_SIZE, env, encoding: null });
    let bytes = 0;
    let exited = false;
    const finish = (): void => {
      if (exited && bytes >= expectedBytes) resolve({ bytes, ms: elapsedMs(start) });
    };
    term.onData((data: string | Buffer) => {
      bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
      finish();
    });
    term.onExit(() => {
      exited = true;
      finish();
    });
  });
}

/** Spawns `count` copies of argv at once and resolves when all exited. */
export async function spawnManyDirect(
  argv: string[],
  count: number,
): Promise<{ ms: number; failures: number }> {
  const start = process.hrtime.bigint();
  const exits = Array.from(
    { length: count },
    () =>
      new Promise<boolean>((resolve) => {
        const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore' });
        child.once('error', () => resolve(false));
        child.once('exit', (code) => resolve(code === 0));
      }),
  );
  const results = await Promise.all(exits);
  return { ms: elapsedMs(start), failures: results.filter((ok) => !ok).length };
}
