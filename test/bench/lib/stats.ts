// Summaries of repeated measurements: median (min..max) over runs, and percentiles of latency
// samples. Pure functions; every benchmark case reports through these so the report stays uniform.

export interface Summary {
  median: number;
  min: number;
  max: number;
  /** How many measured runs (warm-ups excluded). */
  runs: number;
}

/** The q-th quantile (0..1) of `values`, by linear interpolation between closest ranks. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new RangeError('quantile of an empty sample set');
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower]!;
  const high = sorted[upper]!;
  return low + (high - low) * (position - lower);
}

export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) throw new RangeError('cannot summarize zero runs');
  return {
    median: quantile(values, 0.5),
    min: Math.min(...values),
    max: Math.max(...values),
    runs: values.length,
  };
}

/** Milliseconds elapsed since `start` (a process.hrtime.bigint() reading). */
export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Megabytes (10^6 bytes) per second. */
export function mbPerSecond(bytes: number, ms: number): number {
  return bytes / 1e6 / (ms / 1000);
}
