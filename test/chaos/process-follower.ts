// Subscribes to one process through the client API and records what a user would see: output bytes
// in delivery order, the exit code, and anything that breaks the ordering promise (a seq delivered
// twice or backwards, a gap marker, a failure).
import type { ProcessEvent, ProcessHandle } from '../../electron/client/api';

export interface FollowedProcess {
  output: () => Buffer;
  exitCode: () => number | null;
  /** Problems seen so far; a correct run has none. */
  problems: string[];
  /** Resolves on `closed` or `failed`, whichever comes first. */
  finished: Promise<'closed' | 'failed'>;
  unsubscribe: () => void;
}

/**
 * `onEvent` sees every event too, the output that came before the subscription included: the client
 * hands its pre-subscribe buffer to the first subscriber only, so a second one may miss it.
 */
export function followProcess(
  handle: ProcessHandle,
  onEvent: (event: ProcessEvent) => void = () => undefined,
): FollowedProcess {
  const chunks: Buffer[] = [];
  const problems: string[] = [];
  let exitCode: number | null = null;
  let lastSeq = 0;
  let settle: (how: 'closed' | 'failed') => void = () => undefined;
  const finished = new Promise<'closed' | 'failed'>((resolve) => (settle = resolve));
  const unsubscribe = handle.subscribe((event: ProcessEvent) => {
    onEvent(event);
    if ('seq' in event) {
      if (event.seq <= lastSeq) problems.push(`seq ${event.seq} delivered after seq ${lastSeq}`);
      lastSeq = event.seq;
    }
    switch (event.kind) {
      case 'output':
        chunks.push(Buffer.from(event.data));
        break;
      case 'exited':
        exitCode = event.exitCode;
        break;
      case 'closed':
        settle('closed');
        break;
      case 'gap':
        problems.push(`gap: seqs ${event.fromSeq}..${event.toSeq} were lost`);
        break;
      case 'failed':
        problems.push(`process failed: ${event.message}`);
        settle('failed');
        break;
    }
  });
  return { output: () => Buffer.concat(chunks), exitCode: () => exitCode, problems, finished, unsubscribe };
}

/** Rejects after `ms` with a message naming what did not happen. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Polls `condition` every 20 ms until it holds, or fails after `ms`. */
export async function waitUntil(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
