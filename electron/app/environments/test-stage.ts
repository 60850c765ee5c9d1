// The pieces "Test connection" (connection-test.ts) and the kinds' preflights share: a failure that
// names its stage, a deadline on any step, and the check that a local program can be run.
import { constants as fsConstants, promises as fs } from 'node:fs';
import path from 'node:path';
import type { TestConnectionResult } from '../../../shared/ipc';

export type Stage = TestConnectionResult['stage'];

export class StageFailure extends Error {
  constructor(
    readonly stage: Stage,
    message: string,
    readonly certificate?: TestConnectionResult['certificate'],
  ) {
    super(message);
  }
}

export function withDeadline<T>(promise: Promise<T>, deadline: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new StageFailure('timeout', message)),
      Math.max(1, deadline - Date.now()),
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** The program a stdio spec starts exists and may be run (searched on PATH like a shell). */
export async function probeProgram(program: string): Promise<void> {
  if (!program) throw new StageFailure('spawn', 'The command line is empty.');
  const candidates = program.includes('/')
    ? [program]
    : (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, program));
  for (const candidate of candidates) {
    try {
      await fs.access(candidate, fsConstants.X_OK);
      return;
    } catch {
      // Not here; try the next PATH entry.
    }
  }
  throw new StageFailure(
    'spawn',
    `The program "${program}" was not found or is not executable (searched PATH). Install it or give its full path.`,
  );
}
