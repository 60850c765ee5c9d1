// Small helpers for the client integration tests: polling, collecting a process's events, and
// scripts whose output identifies its own position or that wait for a file the test creates.
import { readFileSync } from 'node:fs';
import type { ProcessEvent, ProcessHandle } from '../../../electron/client/api';

/** Polls `check` until it returns a truthy value; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | null | false,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Shell that waits until `file` (relative to the process's cwd) exists: the test's go signal. */
export const untilFile = (file: string): string => `while [ ! -f ${file} ]; do sleep 0.02; done`;

/** What `seq -f '%07g' 1 count` prints: 8-byte lines whose bytes say where they belong. */
export function numberedLines(count: number): string {
  return Array.from({ length: count }, (_, i) => `${String(i + 1).padStart(7, '0')}\n`).join('');
}

/** A file's text, or null while it does not exist yet. */
export function readFileIfAny(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The highest seq the delivered events account for (a gap covers up to its toSeq). */
export function coveredSeq(events: ProcessEvent[]): number {
  let covered = 0;
  for (const e of events) {
    if (e.kind === 'gap') covered = e.toSeq;
    else if (e.kind !== 'failed') covered = e.seq;
  }
  return covered;
}

export interface Collected {
  events: ProcessEvent[];
  /** All output bytes so far, in delivery order. */
  text(): string;
  bytes(): Buffer;
  gaps(): Array<Extract<ProcessEvent, { kind: 'gap' }>>;
  closed(): boolean;
  failed(): string | null;
  exitCode(): number | null;
  /** Every seq from 1 up was delivered exactly once, in order (gaps count as covering their range). */
  inOrder(): boolean;
}

export function collect(handle: ProcessHandle): Collected {
  const events: ProcessEvent[] = [];
  handle.subscribe((e) => events.push(e));
  const bytes = (): Buffer =>
    Buffer.concat(events.flatMap((e) => (e.kind === 'output' ? [Buffer.from(e.data)] : [])));
  return {
    events,
    bytes,
    text: () => bytes().toString('utf8'),
    gaps: () => events.filter((e): e is Extract<ProcessEvent, { kind: 'gap' }> => e.kind === 'gap'),
    closed: () => events.some((e) => e.kind === 'closed'),
    failed: () => {
      const f = events.find((e) => e.kind === 'failed');
      return f?.kind === 'failed' ? f.message : null;
    },
    exitCode: () => {
      const e = events.find((x) => x.kind === 'exited');
      return e?.kind === 'exited' ? e.exitCode : null;
    },
    inOrder: () => {
      let next = 1;
      for (const e of events) {
        if (e.kind === 'failed') continue;
        const from = e.kind === 'gap' ? e.fromSeq : e.seq;
        const to = e.kind === 'gap' ? e.toSeq : e.seq;
        if (from !== next) return false;
        next = to + 1;
      }
      return true;
    },
  };
}

/** Whether any process of group `pgid` is still alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
