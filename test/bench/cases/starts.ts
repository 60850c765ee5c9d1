// Case 4, process starts: N short processes (`/bin/true`) started at once on one connection and
// waited for, through Tether's server and codex's (Tether client, ws), against Node spawning them
// directly. A fresh server per run, so its peak RSS (VmHWM) belongs to that batch alone.
import type { BenchCase, BenchContext } from '../lib/bench-case';
import { BenchTimeoutError, withTimeout } from '../lib/child';
import { spawnManyDirect } from '../lib/direct';
import { peakRssMiB } from '../lib/proc-stats';
import type { CaseRecorder } from '../lib/results';
import { collectUntilClosed, openSide, PROCESS_CWD } from '../lib/sides';
import { elapsedMs } from '../lib/stats';

const ARGV = ['/bin/true'];
const IMPLS = ['tether', 'codex'] as const;

/** One batch through a fresh server: ms until every process closed, and the server's peak RSS. */
async function serverBatch(
  impl: (typeof IMPLS)[number],
  count: number,
  timeoutMs: number,
): Promise<{ ms: number | null; failure: string | null; peakMiB: number | null; commandLine: string }> {
  const side = await openSide(impl, 'ws');
  try {
    const start = process.hrtime.bigint();
    const batch = Promise.all(
      Array.from({ length: count }, async () => {
        const handle = await side.client.startProcess({ argv: ARGV, cwd: PROCESS_CWD, env: {}, tty: false });
        await collectUntilClosed(handle);
        handle.dispose();
      }),
    );
    let ms: number | null = null;
    let failure: string | null = null;
    try {
      await withTimeout(batch, timeoutMs, `${impl} batch of ${count}`);
      ms = elapsedMs(start);
    } catch (error) {
      batch.catch(() => undefined);
      if (!(error instanceof BenchTimeoutError)) failure = (error as Error).message;
    }
    return { ms, failure, peakMiB: peakRssMiB(side.serverPid), commandLine: side.commandLine };
  } finally {
    await side.stop();
  }
}

async function run(context: BenchContext, recorder: CaseRecorder): Promise<void> {
  const { counts, runs, batchTimeoutMs } = context.config.starts;
  recorder.setup(
    `${counts.join(' and ')} processes \`${ARGV.join(' ')}\` started at once on one ws connection (Tether ` +
      `client), ${runs} run(s) after a warm-up batch of 10; time until every one reported closed. A batch not done ` +
      `within ${batchTimeoutMs / 1000} s is reported as wedged. Server peak RSS = VmHWM of the server pid, ` +
      'a fresh server per batch.',
  );
  recorder.command(`node: child_process.spawn('${ARGV.join(' ')}') × N at once`);
  for (const impl of IMPLS) await serverBatch(impl, 10, batchTimeoutMs);
  await spawnManyDirect(ARGV, 10);
  for (const count of counts) {
    const direct: number[] = [];
    const times = new Map<string, number[]>(IMPLS.map((impl) => [impl, []]));
    const peaks = new Map<string, number[]>(IMPLS.map((impl) => [impl, []]));
    const wedged = new Set<string>();
    /** A batch that broke (e.g. the server dropped the connection), with the client's message. */
    const failed = new Map<string, string>();
    for (let runIndex = 0; runIndex < runs; runIndex += 1) {
      const result = await spawnManyDirect(ARGV, count);
      if (result.failures > 0) throw new Error(`${result.failures} of ${count} direct spawns failed`);
      direct.push(result.ms);
      for (const impl of IMPLS) {
        if (wedged.has(impl) || failed.has(impl)) continue;
        const batch = await serverBatch(impl, count, batchTimeoutMs);
        recorder.command(batch.commandLine);
        if (batch.peakMiB !== null) peaks.get(impl)!.push(batch.peakMiB);
        if (batch.failure !== null) failed.set(impl, batch.failure);
        else if (batch.ms === null) wedged.add(impl);
        else times.get(impl)!.push(batch.ms);
        context.log(
          `  ${impl} × ${count}: ${batch.failure ?? (batch.ms === null ? 'wedged' : `${batch.ms.toFixed(0)} ms`)}`,
        );
      }
    }
    recorder.ok(`direct spawn × ${count}`, 'ms', direct);
    for (const impl of IMPLS) {
      const name = `${impl} × ${count}`;
      const peak = peaks.get(impl)!;
      if (failed.has(impl)) {
        recorder.missing(name, 'ms', 'failed', failed.get(impl)!);
      } else if (wedged.has(impl)) {
        recorder.missing(
          name,
          'ms',
          'wedged',
          `did not finish within ${batchTimeoutMs / 1000} s` +
            (peak.length > 0 ? `; server peak RSS ${Math.max(...peak).toFixed(1)} MiB` : ''),
        );
      } else {
        recorder.ok(
          name,
          'ms',
          times.get(impl)!,
          peak.length > 0 ? { 'server peak RSS MiB': peak } : undefined,
        );
      }
    }
    const ratio = recorder.ratio(`tether/direct × ${count}`, `tether × ${count}`, `direct spawn × ${count}`);
    recorder.ratio(`codex/direct × ${count}`, `codex × ${count}`, `direct spawn × ${count}`);
    recorder.goal(
      `Tether ≤ 1.5× direct spawn (× ${count})`,
      ratio,
      (v) => v <= 1.5,
      (v) => `${v.toFixed(2)}×`,
    );
    recorder.goal(
      `Tether never wedges (× ${count})`,
      wedged.has('tether') || failed.has('tether') ? 1 : 0,
      (v) => v === 0,
      (v) => (v === 0 ? 'finished every batch' : (failed.get('tether') ?? 'wedged')),
    );
    const tetherPeak = peaks.get('tether')!;
    const codexPeak = peaks.get('codex')!;
    recorder.goal(
      `Tether server peak RSS ≤ codex's (× ${count})`,
      tetherPeak.length > 0 && codexPeak.length > 0 ? Math.max(...tetherPeak) - Math.max(...codexPeak) : null,
      (v) => v <= 0,
      () => `${Math.max(...tetherPeak).toFixed(1)} MiB vs ${Math.max(...codexPeak).toFixed(1)} MiB`,
      // Measured on this machine: both servers idle at about 42 MiB; an empty worker adds 12 MiB to Node.
      "idle, both servers take about 42 MiB; the reader thread is a second V8 instance (about 12 MiB more), and a burst of starts grows V8's heap, which Node gives back only after collections, where codex's Rust server frees each process's memory as it goes",
    );
  }
}

export const startsCase: BenchCase = { id: 'starts', title: 'Process starts', run };
