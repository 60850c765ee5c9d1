// What the echo benchmarks time: a byte pipe to a raw-mode tty `cat` (through a Tether client, an
// ssh-like command, or node-pty directly), and one sample = ms from writing a byte until it is read
// back. Shared by the local echo case and the SSH case so both measure keystrokes the same way.
import { spawn } from 'node:child_process';
import * as pty from 'node-pty';
import type { ExecServerClientApi } from '../../../electron/client/api';
import { withTimeout } from './child';
import { PTY_SIZE } from './direct';
import { PROCESS_CWD } from './sides';
import { elapsedMs } from './stats';

/** Puts the pty in raw mode without echo, says it is ready, then echoes bytes back one by one. */
export const RAW_CAT = 'stty raw -echo; printf R; exec cat';
const READY_MARK = 'R';
const READY_TIMEOUT_MS = 15_000;
/** Samples each target takes before handing over to the next. */
export const ROUND_SAMPLES = 50;
const CHILD_ENV = { PATH: '/usr/bin:/bin', TERM: 'xterm-256color', LANG: 'C.UTF-8' };

/** A byte pipe to a raw `cat`: write sends keystrokes, the listener receives what came back. */
export interface EchoTarget {
  name: string;
  /** Resolves once the ready mark came back (raw mode is on). */
  ready: Promise<void>;
  write(byte: string): void;
  setListener(listener: (data: string) => void): void;
  close(): Promise<void>;
}

/** Builds a target around a write function; `deliver` must be called with everything read back. */
function makeTarget(
  name: string,
  write: (byte: string) => void,
  close: () => Promise<void>,
): { target: EchoTarget; deliver: (data: string) => void } {
  let listener: (data: string) => void = () => undefined;
  let seen: string | null = '';
  let markSeen: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markSeen = resolve));
  const deliver = (data: string): void => {
    if (seen !== null) {
      seen += data;
      if (seen.includes(READY_MARK)) {
        seen = null;
        markSeen();
      }
    }
    listener(data);
  };
  return { target: { name, ready, write, setListener: (l) => (listener = l), close }, deliver };
}

/** The raw `cat` on a pty started through a connected Tether client (any transport). */
export async function clientTarget(name: string, client: ExecServerClientApi): Promise<EchoTarget> {
  const handle = await client.startProcess({
    argv: ['/bin/sh', '-c', RAW_CAT],
    cwd: PROCESS_CWD,
    env: CHILD_ENV,
    tty: true,
    size: PTY_SIZE,
  });
  const { target, deliver } = makeTarget(
    name,
    (byte) => void handle.write(byte),
    async () => {
      await handle.terminate();
      handle.dispose();
    },
  );
  let consumed = 0;
  const decoder = new TextDecoder();
  handle.subscribe((event) => {
    if (event.kind !== 'output') return;
    consumed += event.data.length;
    handle.acknowledge(consumed);
    deliver(decoder.decode(event.data));
  });
  return target;
}

/** A local command (`ssh -tt … RAW_CAT`) whose stdin and stdout are the pipe. */
export function commandTarget(name: string, argv: string[]): EchoTarget {
  const [command, ...args] = argv;
  const child = spawn(command!, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdin.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { target, deliver } = makeTarget(
    name,
    (byte) => child.stdin.write(byte),
    async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  );
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', deliver);
  return target;
}

/** The raw `cat` on a local pty read by node-pty: the floor. */
export function ptyTarget(): EchoTarget {
  const term = pty.spawn('/bin/sh', ['-c', RAW_CAT], { ...PTY_SIZE, env: CHILD_ENV });
  const exited = new Promise<void>((resolve) => term.onExit(() => resolve()));
  const { target, deliver } = makeTarget(
    'node-pty direct',
    (byte) => term.write(byte),
    async () => {
      term.kill();
      await exited;
    },
  );
  term.onData(deliver);
  return target;
}

/** One sample: ms from writing `byte` until it came back. */
function sample(target: EchoTarget, byte: string, timeoutMs: number): Promise<number> {
  return withTimeout(
    new Promise<number>((resolve) => {
      let start = 0n;
      target.setListener((data) => {
        if (data.includes(byte)) resolve(elapsedMs(start));
      });
      start = process.hrtime.bigint();
      target.write(byte);
    }),
    timeoutMs,
    `${target.name} echo`,
  );
}

export interface SamplingPlan {
  samples: number;
  warmupSamples: number;
  sampleTimeoutMs: number;
}

/**
 * Waits for every target's ready mark, warms each up, then takes `samples` per target in rounds of
 * ROUND_SAMPLES, targets in turn, so the machine's noise hits them alike. Values by target name.
 */
export async function sampleInRounds(
  targets: EchoTarget[],
  { samples, warmupSamples, sampleTimeoutMs }: SamplingPlan,
): Promise<Map<string, number[]>> {
  for (const target of targets) {
    await withTimeout(target.ready, READY_TIMEOUT_MS, `${target.name} ready mark`);
    for (let i = 0; i < warmupSamples; i += 1) await sample(target, 'w', sampleTimeoutMs);
  }
  const values = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  for (let taken = 0; taken < samples; taken += ROUND_SAMPLES) {
    for (const target of targets) {
      for (let i = taken; i < Math.min(samples, taken + ROUND_SAMPLES); i += 1) {
        // Letters in turn, so a late echo of the previous sample is never taken for this one.
        values
          .get(target.name)!
          .push(await sample(target, String.fromCharCode(97 + (i % 26)), sampleTimeoutMs));
      }
    }
  }
  return values;
}
