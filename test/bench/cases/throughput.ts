// Case 1, output throughput: a process writes N bytes (zeros, ANSI text) on a pipe or a pty; the
// Tether client reads it through Tether's server and codex's, over ws and stdio, side by side with
// the ceilings "Node reads the pipe/pty directly" and "Node ws carrying the same JSON+base64 frames".
import path from 'node:path';
import type { BenchCase, BenchContext } from '../lib/bench-case';
import { firstLine, startTsHelper, withTimeout, type Helper } from '../lib/child';
import { PTY_SIZE, readPipeDirect, readPtyDirect } from '../lib/direct';
import { ptyOutputBytes, writeAnsiBlock, writerArgv, type PayloadKind } from '../lib/payload';
import { cpuTimeMs } from '../lib/proc-stats';
import type { CaseRecorder } from '../lib/results';
import { openSide, runToClose, type Side } from '../lib/sides';
import { mbPerSecond } from '../lib/stats';
import { readWsFrames } from '../lib/ws-frames';

/** Frame size of the ws ceiling: the largest chunk a Node pipe read yields. */
const CEILING_FRAME_BYTES = 65_536;
const PAYLOADS: PayloadKind[] = ['zeros', 'ansi'];
const MODES = [
  { name: 'pipe', tty: false },
  { name: 'pty', tty: true },
] as const;
const TRANSPORTS = ['ws', 'stdio'] as const;
const IMPLS = ['tether', 'codex'] as const;
const CHILD_ENV = { PATH: '/usr/bin:/bin', TERM: 'xterm-256color', LANG: 'C.UTF-8' };

// Why a pty goal can be missed (measured, docs/exec-server.md, Pty output): the kernel's pty path
// bounds every reader, Tether's and codex's alike.
const PTY_READS =
  'a pty hands over at most 4 KiB per read (its line discipline’s buffer) and each read waits on the ' +
  'kernel’s flush worker, so every reader pays the kernel per 4 KiB (Tether’s reader thread, the server’s ' +
  'largest consumer for a pty, spends more than half of its CPU in the pty’s read and poll)';
const PTY_WHY_NOT: Record<PayloadKind, string> = {
  zeros:
    `${PTY_READS}; a bare blocking read loop (Python) got 1.3–2.6× codex’s rate over ws and 3.3–4.2× ` +
    'over stdio in the same minutes, and Tether 0.55–1.2× of that loop, its reader, main thread and client ' +
    'sharing the 2 cores with the writer and the flush worker (docs/exec-server.md, Pty output)',
  ansi:
    `${PTY_READS}; the writer’s side costs more still (the line discipline writes each line as its text ` +
    'and then CR LF, pushing the buffer to the flush worker each time), so a bare blocking read loop got ' +
    'only 1.7–2.5× codex’s rate (docs/exec-server.md, Pty output)',
};

interface Sample {
  mbps: number;
  cpuMs: number | null;
}

async function measure(
  recorder: CaseRecorder,
  context: BenchContext,
  name: string,
  body: (bytes: number) => Promise<{ bytes: number; ms: number; cpuMs?: number | null }>,
  expected: (bytes: number) => number,
): Promise<void> {
  const { bytes, warmupBytes, runs, runTimeoutMs } = context.config.throughput;
  const samples: Sample[] = [];
  const shortfalls: string[] = [];
  try {
    await withTimeout(body(warmupBytes), runTimeoutMs, `${name} warm-up`);
    for (let run = 0; run < runs; run += 1) {
      const result = await withTimeout(body(bytes), runTimeoutMs, name);
      if (result.bytes !== expected(bytes))
        shortfalls.push(`received ${result.bytes} of ${expected(bytes)} bytes`);
      samples.push({ mbps: mbPerSecond(bytes, result.ms), cpuMs: result.cpuMs ?? null });
    }
  } catch (error) {
    recorder.missing(name, 'MB/s', 'failed', (error as Error).message);
    context.log(`  ${name}: failed: ${(error as Error).message}`);
    return;
  }
  const cpu = samples.flatMap((s) => (s.cpuMs === null ? [] : [s.cpuMs]));
  recorder.ok(
    name,
    'MB/s',
    samples.map((s) => s.mbps),
    cpu.length > 0 ? { 'server CPU ms': cpu } : undefined,
    shortfalls.length > 0 ? `output lost: ${shortfalls.join('; ')}` : undefined,
  );
  if (shortfalls.length > 0) recorder.note(`${name}: output lost (${shortfalls.join('; ')}).`);
  context.log(`  ${name}: ${samples.map((s) => s.mbps.toFixed(1)).join(', ')} MB/s`);
}

async function run(context: BenchContext, recorder: CaseRecorder): Promise<void> {
  const { bytes, runs } = context.config.throughput;
  const ansiFile = path.join(context.workDir, 'ansi-block.txt');
  writeAnsiBlock(ansiFile);
  recorder.setup(
    `${(bytes / 1048576).toFixed(bytes < 1048576 ? 2 : 0)} MiB per run, ${runs} measured run(s) after a warm-up; ` +
      `MB/s = 10^6 bytes of payload per second from process start to the closed event. ` +
      `ws frame ceiling: ${CEILING_FRAME_BYTES}-byte chunks. pty ${PTY_SIZE.cols}x${PTY_SIZE.rows}.`,
  );
  for (const kind of PAYLOADS) recorder.command(writerArgv(kind, bytes, ansiFile).join(' '));

  const sides = new Map<string, Side>();
  const frameServers = new Map<PayloadKind, { helper: Helper; url: string }>();
  try {
    for (const transport of TRANSPORTS) {
      for (const impl of IMPLS) {
        const side = await openSide(impl, transport);
        recorder.command(side.commandLine);
        sides.set(`${impl}/${transport}`, side);
      }
    }
    for (const kind of PAYLOADS) {
      const helper = startTsHelper('frame-server.ts', [kind, String(bytes), String(CEILING_FRAME_BYTES)]);
      frameServers.set(kind, { helper, url: await firstLine(helper) });
    }

    for (const kind of PAYLOADS) {
      for (const mode of MODES) {
        const expected = (n: number): number => (mode.tty ? ptyOutputBytes(kind, n) : n);
        const argv = (n: number): string[] => writerArgv(kind, n, ansiFile);
        await measure(
          recorder,
          context,
          `direct · ${mode.name} · ${kind}`,
          (n) =>
            mode.tty ? readPtyDirect(argv(n), CHILD_ENV, expected(n)) : readPipeDirect(argv(n), CHILD_ENV),
          expected,
        );
        for (const transport of TRANSPORTS) {
          for (const impl of IMPLS) {
            const side = sides.get(`${impl}/${transport}`)!;
            await measure(
              recorder,
              context,
              `${impl} · ${transport} · ${mode.name} · ${kind}`,
              async (n) => {
                const before = cpuTimeMs(side.serverPid);
                const result = await runToClose(side, { argv: argv(n), env: CHILD_ENV, tty: mode.tty });
                const after = cpuTimeMs(side.serverPid);
                return { ...result, cpuMs: before !== null && after !== null ? after - before : null };
              },
              expected,
            );
          }
        }
      }
      const frames = frameServers.get(kind)!;
      await measure(
        recorder,
        context,
        `ws frames ceiling · ${kind}`,
        () => readWsFrames(frames.url),
        () => bytes,
      );
    }
  } finally {
    for (const side of sides.values()) await side.stop();
    for (const { helper } of frameServers.values()) await helper.stop();
  }

  for (const kind of PAYLOADS) {
    for (const mode of MODES) {
      for (const transport of TRANSPORTS) {
        const tether = `tether · ${transport} · ${mode.name} · ${kind}`;
        const codex = `codex · ${transport} · ${mode.name} · ${kind}`;
        const ratio = recorder.ratio(`tether/codex · ${transport} · ${mode.name} · ${kind}`, tether, codex);
        const target = transport === 'ws' ? 1.2 : 3;
        recorder.goal(
          `Tether/codex ≥ ${target} (${transport}, ${mode.name}, ${kind})`,
          ratio,
          (v) => v >= target,
          (v) => `${v.toFixed(2)}×`,
          mode.tty ? PTY_WHY_NOT[kind] : undefined,
        );
        recorder.ratio(
          `tether/direct · ${transport} · ${mode.name} · ${kind}`,
          tether,
          `direct · ${mode.name} · ${kind}`,
        );
      }
    }
    recorder.ratio(
      `tether ws pipe / ws frames ceiling · ${kind}`,
      `tether · ws · pipe · ${kind}`,
      `ws frames ceiling · ${kind}`,
    );
  }
}

export const throughputCase: BenchCase = { id: 'throughput', title: 'Output throughput', run };
