// A debug hook for the footprint bench alone: it reads the app's RSS and needs that to count what
// the app holds, not garbage a collection has not reached yet.

/** Starts the line written to stderr once a requested collection is done; process.memoryUsage() follows as JSON. */
export const BENCH_GC_DONE_LINE = 'tether: garbage collected ';

/**
 * With node --expose-gc and TETHER_BENCH_GC=1 (only the bench starts the app so), SIGUSR2 runs a
 * full collection and then writes BENCH_GC_DONE_LINE and the memory figures after it to stderr. Otherwise nothing is installed.
 */
export function listenForBenchGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (process.env.TETHER_BENCH_GC !== '1' || !gc) return;
  process.on('SIGUSR2', () => {
    gc();
    process.stderr.write(`${BENCH_GC_DONE_LINE}${JSON.stringify(process.memoryUsage())}\n`);
  });
}
