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

/** After the pty child exited, output that has not arrived within this long is taken as lost. */
const PTY_TAIL_QUIET_MS = 250;

/**
 * Runs argv on a pty; resolves once it exited and `expectedBytes` arrived, or nothing more came for
 * PTY_TAIL_QUIET_MS after the exit (node-pty may drop the last output of a process that exits).
 * `ms` runs until the last byte read.
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
    let lastByteMs = 0;
    let exited = false;
    let quiet: NodeJS.Timeout | undefined;
    const finish = (): void => {
      clearTimeout(quiet);
      resolve({ bytes, ms: lastByteMs });
    };
    const check = (): void => {
      if (!exited) return;
      if (bytes >= expectedBytes) finish();
      else {
        clearTimeout(quiet);
        quiet = setTimeout(finish, PTY_TAIL_QUIET_MS);
      }
    };
    term.onData((data: string | Buffer) => {
      bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
      lastByteMs = elapsedMs(start);
      check();
    });
    term.onExit(() => {
      exited = true;
      check();
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
