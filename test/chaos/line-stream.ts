// The chaos workload: a shell loop that prints numbered lines in bursts (so faults land mid-stream)
// and exits with a known code, plus the exact bytes it must produce.

export interface LineStream {
  argv: string[];
  exitCode: number;
  /** Exact expected bytes with '\n' line ends (a pty turns them into '\r\n'). */
  expected(lineEnd?: '\n' | '\r\n'): Buffer;
}

/**
 * `bursts` bursts of `linesPerBurst` lines (`seq`), `pauseMs` apart. Keep the total under the servers'
 * 1 MiB output retention so no outage can force a real gap (6-digit numbers: ~7 bytes a line).
 */
export function lineStream(options: {
  bursts: number;
  linesPerBurst: number;
  pauseMs: number;
  exitCode: number;
}): LineStream {
  const { bursts, linesPerBurst, pauseMs, exitCode } = options;
  const total = bursts * linesPerBurst;
  const script =
    `n=0; while [ $n -lt ${bursts} ]; do ` +
    `seq $((n*${linesPerBurst}+1)) $((n*${linesPerBurst}+${linesPerBurst})); ` +
    `n=$((n+1)); sleep ${(pauseMs / 1000).toFixed(3)}; done; exit ${exitCode}`;
  return {
    argv: ['/bin/sh', '-c', script],
    exitCode,
    expected(lineEnd = '\n') {
      let text = '';
      for (let i = 1; i <= total; i++) text += `${i}${lineEnd}`;
      return Buffer.from(text);
    },
  };
}

/** Where two byte strings first differ, for failure messages that point at the damage. */
export function firstDifference(actual: Buffer, expected: Buffer): string {
  const n = Math.min(actual.length, expected.length);
  let i = 0;
  while (i < n && actual[i] === expected[i]) i++;
  if (i === n && actual.length === expected.length) return 'identical';
  const around = (b: Buffer) => JSON.stringify(b.subarray(Math.max(0, i - 40), i + 40).toString());
  return (
    `first difference at byte ${i} (actual ${actual.length} bytes, expected ${expected.length}): ` +
    `actual …${around(actual)}… expected …${around(expected)}…`
  );
}
