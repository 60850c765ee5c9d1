// Small helpers for the client integration tests: polling (description first), collecting a process's events, and
// scripts whose output identifies its own position or that wait for a file the test creates, and
// the scenario of output produced while the link is cut.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { ExecServerClientApi, ProcessEvent, ProcessHandle } from '../../../electron/client/api';
import type { FaultProxy } from '../../support/fault-proxy';
import { waitFor as waitUntilTruthy } from '../../support/wait';

/** `waitFor` of test/support/wait.ts with the description first, as these tests have always read. */
export function waitFor<T>(
  what: string,
  check: () => T | undefined | null | false,
  timeoutMs?: number,
): Promise<T> {
  return waitUntilTruthy(check, what, timeoutMs);
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

/**
 * Runs a process that prints ticks 1–100, waits for the test's `go` file and then prints 101–300,
 * cuts the link after the first hundred and keeps it refused until the process has finished, so
 * the rest of its output and its exit happen while the client is cut off. Resolves with everything
 * the client delivered, once the process closed; the caller checks it is complete.
 */
export async function outputProducedWhileCut(
  client: ExecServerClientApi,
  proxy: FaultProxy,
  home: string,
): Promise<Collected> {
  const finished = path.join(home, 'finished');
  const tick = (from: number, to: number): string =>
    `i=${from - 1}; while [ $i -lt ${to} ]; do i=$((i+1)); echo "tick $i"; done`;
  const out = collect(
    await client.startProcess({
      argv: ['/bin/sh', '-c', `${tick(1, 100)}; ${untilFile('go')}; ${tick(101, 300)}; touch finished`],
      cwd: home,
      tty: false,
    }),
  );
  await waitFor('the first hundred ticks', () => out.text().endsWith('tick 100\n'));
  expect(proxy.cutAll()).toBe(1);
  proxy.refuseNew(true);
  writeFileSync(path.join(home, 'go'), '');
  await waitFor('the process to finish while cut off', () => existsSync(finished));
  proxy.refuseNew(false);
  await waitFor('closed', () => out.closed(), 45_000);
  return out;
}

/** The ticks `outputProducedWhileCut` prints, all 300 of them. */
export const ALL_TICKS = Array.from({ length: 300 }, (_, i) => `tick ${i + 1}\n`).join('');
