// Case 2, keystroke echo latency: one byte into a raw-mode tty `cat`, timed until it comes back, many
// samples. Tether client with Tether's server and with codex's, `ssh -tt` to a throwaway sshd, and
// node-pty reading the pty directly (the floor). Sides take turns in rounds so noise hits all alike.
import { spawn } from 'node:child_process';
import * as pty from 'node-pty';
import type { BenchCase, BenchContext } from '../lib/bench-case';
import { withTimeout } from '../lib/child';
import { PTY_SIZE } from '../lib/direct';
import type { CaseRecorder } from '../lib/results';
import { openSide, PROCESS_CWD, type Side } from '../lib/sides';
import { startSshd, type TempSshd } from '../lib/sshd';
import { elapsedMs, quantile } from '../lib/stats';

/** Puts the pty in raw mode without echo, says it is ready, then echoes bytes back one by one. */
const RAW_CAT = 'stty raw -echo; printf R; exec cat';
const READY_MARK = 'R';
const READY_TIMEOUT_MS = 15_000;
/** Samples each side takes before handing over to the next. */
const ROUND_SAMPLES = 50;
const CHILD_ENV = { PATH: '/usr/bin:/bin', TERM: 'xterm-256color', LANG: 'C.UTF-8' };

/** A byte pipe to a raw `cat`: write sends keystrokes, the listener receives what came back. */
interface EchoTarget {
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

async function clientTarget(name: string, side: Side): Promise<EchoTarget> {
  const handle = await side.client.startProcess({
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

function sshTarget(sshd: TempSshd): EchoTarget {
  const [command, ...args] = sshd.clientArgv(RAW_CAT);
  const child = spawn(command!, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdin.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { target, deliver } = makeTarget(
    'ssh -tt',
    (byte) => child.stdin.write(byte),
    async () => {
      child.kill('SIGTERM');
      await exited;
    },
  );
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', deliver);
  return target;
}

function ptyTarget(): EchoTarget {
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

async function run(context: BenchContext, recorder: CaseRecorder): Promise<void> {
  const { samples, warmupSamples, sampleTimeoutMs } = context.config.echo;
  recorder.setup(
    `${samples} samples per side after ${warmupSamples} warm-up samples, taken in rounds of ${ROUND_SAMPLES} per ` +
      `side in turn; one byte written into \`sh -c '${RAW_CAT}'\` on a pty, timed with process.hrtime until ` +
      'the byte is read back. The figure is p50 (min..max); p99 beside it.',
  );
  const targets: EchoTarget[] = [];
  const sides: Side[] = [];
  let sshd: TempSshd | null = null;
  try {
    for (const [impl, transport] of [
      ['tether', 'ws'],
      ['codex', 'ws'],
      ['tether', 'stdio'],
    ] as const) {
      const side = await openSide(impl, transport);
      sides.push(side);
      recorder.command(side.commandLine);
      targets.push(await clientTarget(`tether client · ${impl} server · ${transport}`, side));
    }
    try {
      sshd = await startSshd();
      recorder.command(sshd.clientArgv(RAW_CAT).join(' '));
      targets.push(sshTarget(sshd));
    } catch (error) {
      recorder.missing('ssh -tt', 'ms', 'skipped', (error as Error).message);
      context.log(`  ssh skipped: ${(error as Error).message}`);
    }
    targets.push(ptyTarget());
    for (const target of targets) {
      await withTimeout(target.ready, READY_TIMEOUT_MS, `${target.name} ready mark`);
      for (let i = 0; i < warmupSamples; i += 1) await sample(target, 'w', sampleTimeoutMs);
    }
    const values = new Map<string, number[]>(targets.map((t) => [t.name, []]));
    for (let taken = 0; taken < samples; taken += ROUND_SAMPLES) {
      for (const target of targets) {
        for (let i = taken; i < Math.min(samples, taken + ROUND_SAMPLES); i += 1) {
          values
            .get(target.name)!
            .push(await sample(target, String.fromCharCode(97 + (i % 26)), sampleTimeoutMs));
        }
      }
    }
    for (const target of targets) {
      const list = values.get(target.name)!;
      recorder.ok(target.name, 'ms', list, { 'p99 ms': [quantile(list, 0.99)] });
      context.log(
        `  ${target.name}: p50 ${quantile(list, 0.5).toFixed(3)} ms, p99 ${quantile(list, 0.99).toFixed(3)} ms`,
      );
    }
  } finally {
    for (const target of targets) await target.close();
    for (const side of sides) await side.stop();
    await sshd?.stop();
  }

  const p99 = (name: string): number | null => recorder.get(name)?.extra?.['p99 ms'] ?? null;
  const tetherWs = 'tether client · tether server · ws';
  const ms = (v: number): string => `${v.toFixed(3)} ms`;
  recorder.goal('Tether p50 ≤ 1 ms over ws', recorder.median(tetherWs), (v) => v <= 1, ms);
  recorder.goal('Tether p99 ≤ 3 ms over ws', p99(tetherWs), (v) => v <= 3, ms);
  const vsSsh = recorder.ratio('tether ws p50 / ssh p50', tetherWs, 'ssh -tt');
  recorder.goal(
    'Tether p50 ≤ 1.5× ssh p50 (same run)',
    vsSsh,
    (v) => v <= 1.5,
    (v) => `${v.toFixed(2)}×`,
  );
  recorder.goal(
    'Tether client p50 < 1 ms against codex server (ws)',
    recorder.median('tether client · codex server · ws'),
    (v) => v < 1,
    ms,
  );
  recorder.ratio('tether ws p50 / node-pty direct p50', tetherWs, 'node-pty direct');
}

export const echoCase: BenchCase = { id: 'echo', title: 'Keystroke echo latency', run };
