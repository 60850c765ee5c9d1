// Sizes and run counts of every case, full (`npm run bench`) and quick (`--quick`, the CI harness
// check). One place, so the whole bench's running time is tuned here.

export interface BenchConfig {
  quick: boolean;
  throughput: {
    /** Bytes each measured process writes. */
    bytes: number;
    /** Bytes of the un-measured warm-up run of each combination. */
    warmupBytes: number;
    runs: number;
    /** A single run that takes longer than this is reported as failed. */
    runTimeoutMs: number;
  };
  /** `tether run` of N zero bytes, with and without flow control and through codex's server. */
  runOutput: {
    bytes: number;
    /** Bytes of one un-measured run per contender first (0: none). */
    warmupBytes: number;
    runs: number;
    runTimeoutMs: number;
  };
  echo: { samples: number; warmupSamples: number; sampleTimeoutMs: number };
  reconnect: {
    outagesMs: number[];
    runs: number;
    /** How often the numbered-lines process prints. */
    lineIntervalMs: number;
    /** Lines printed (and delivered) before the cut. */
    linesBeforeCut: number;
    recoveryTimeoutMs: number;
  };
  starts: {
    counts: number[];
    runs: number;
    /** A batch not finished by then is reported as wedged (codex wedges on big batches). */
    batchTimeoutMs: number;
  };
  pixels: {
    bytes: number;
    runs: number;
    warmups: number;
    /** How long `yes` floods the pane before Ctrl-C. */
    floodMs: number;
    ctrlCRuns: number;
    keystrokeSamples: number;
    stepTimeoutMs: number;
  };
  /** Keystroke → glyph at 100 ms RTT with predictive echo: lines of ten keys typed at a prompt. */
  typing: { lines: number; keysPerLine: number; stepTimeoutMs: number };
  footprint: { environments: number; panes: number; linesPerPane: number; timeoutMs: number };
  /** One app, many environments (ws over a few servers, SSH over a few sshd), all cut at once. */
  fleet: {
    wsServers: number;
    wsEnvironments: number;
    sshHosts: number;
    sshEnvironments: number;
    /** How often each environment's process prints a numbered line. */
    lineIntervalMs: number;
    cutMs: number;
    /** Connecting every environment and starting its process. */
    setupTimeoutMs: number;
    /** From the restore until every environment is back and its output past the restore. */
    resumeTimeoutMs: number;
    /** Measured quiet time before the cut and after the last resume. */
    settleMs: number;
  };
  transfer: {
    /** Size of the one big file copied each way on the plain link (RTT 0). */
    bytes: number;
    /** Size of the big file over a delayed link (RTT above 0). */
    delayedBytes: number;
    /** Round-trip times the delaying proxy adds. */
    rttsMs: number[];
    /** The folder of many small files: how many, and how big each. */
    smallFiles: number;
    smallFileBytes: number;
    runs: number;
    runTimeoutMs: number;
  };
  /** Container environments against `podman exec` (test/bench/cases/container.ts). */
  container: {
    warmRuns: number;
    /** Bytes of `head -c N /dev/zero` per output run. */
    outputBytes: number;
    outputRuns: number;
    runTimeoutMs: number;
    connectTimeoutMs: number;
  };
  /** Port forwarding against `ssh -L` (cases/forward.ts). */
  forward: {
    /** Bytes of one download through each contender. */
    bytes: number;
    runs: number;
    /** Request round trips per contender (each on a new connection). */
    requests: number;
    runTimeoutMs: number;
    connectTimeoutMs: number;
  };
  ssh: {
    /** Cold connects, each to a fresh host HOME (so each installs the server). */
    coldRuns: number;
    warmRuns: number;
    echoSamples: number;
    echoWarmupSamples: number;
    sampleTimeoutMs: number;
    /** Bytes of `head -c N /dev/zero` per output run. */
    outputBytes: number;
    outputRuns: number;
    runTimeoutMs: number;
    connectTimeoutMs: number;
  };
}

const MiB = 1024 * 1024;

export const FULL_CONFIG: BenchConfig = {
  quick: false,
  // 128 MiB per throughput run (16 combinations, a pty one near 4 s even so) and 3 `tether run`s a
  // side, so that one full bench fits in 15 minutes here; the verdicts did not move at 256 MiB.
  throughput: { bytes: 128 * MiB, warmupBytes: 16 * MiB, runs: 3, runTimeoutMs: 60_000 },
  runOutput: { bytes: 256 * MiB, warmupBytes: 16 * MiB, runs: 3, runTimeoutMs: 120_000 },
  echo: { samples: 1000, warmupSamples: 50, sampleTimeoutMs: 2_000 },
  reconnect: {
    outagesMs: [0, 500, 2000],
    runs: 5,
    lineIntervalMs: 1,
    linesBeforeCut: 200,
    recoveryTimeoutMs: 30_000,
  },
  starts: { counts: [200, 1000], runs: 3, batchTimeoutMs: 30_000 },
  pixels: {
    bytes: 2 * MiB,
    runs: 3,
    warmups: 1,
    floodMs: 1_000,
    ctrlCRuns: 5,
    keystrokeSamples: 100,
    stepTimeoutMs: 60_000,
  },
  typing: { lines: 6, keysPerLine: 10, stepTimeoutMs: 60_000 },
  footprint: { environments: 10, panes: 50, linesPerPane: 10_000, timeoutMs: 180_000 },
  fleet: {
    wsServers: 4,
    wsEnvironments: 80,
    sshHosts: 2,
    sshEnvironments: 20,
    lineIntervalMs: 250,
    // Long past the backoff ramp (about 8 s), so the reconnects are at their steady spread.
    cutMs: 30_000,
    setupTimeoutMs: 120_000,
    resumeTimeoutMs: 60_000,
    settleMs: 5_000,
  },
  // 256 MiB on the plain link, as issue #21 states its goal; 64 MiB at 40 ms and 1,000 small
  // files instead of 2,000 keep the case near 4 minutes with the SSH rows (it took 5 without them
  // and at full sizes) and change no verdict: each run still lasts seconds.
  transfer: {
    bytes: 256 * MiB,
    delayedBytes: 64 * MiB,
    rttsMs: [0, 40],
    smallFiles: 1000,
    smallFileBytes: 4096,
    runs: 3,
    runTimeoutMs: 300_000,
  },
  container: {
    warmRuns: 10,
    outputBytes: 64 * MiB,
    outputRuns: 7,
    runTimeoutMs: 60_000,
    connectTimeoutMs: 120_000,
  },
  forward: { bytes: 256 * MiB, runs: 3, requests: 300, runTimeoutMs: 120_000, connectTimeoutMs: 60_000 },
  ssh: {
    coldRuns: 3,
    warmRuns: 10,
    echoSamples: 500,
    echoWarmupSamples: 20,
    sampleTimeoutMs: 2_000,
    outputBytes: 64 * MiB,
    outputRuns: 3,
    runTimeoutMs: 60_000,
    connectTimeoutMs: 60_000,
  },
};

export const QUICK_CONFIG: BenchConfig = {
  quick: true,
  throughput: { bytes: 256 * 1024, warmupBytes: 64 * 1024, runs: 1, runTimeoutMs: 20_000 },
  // No warm-up: each run starts a `tether run`, and the quick run only proves the case works.
  runOutput: { bytes: 1 * MiB, warmupBytes: 0, runs: 1, runTimeoutMs: 30_000 },
  echo: { samples: 20, warmupSamples: 3, sampleTimeoutMs: 2_000 },
  reconnect: {
    outagesMs: [0, 100],
    runs: 1,
    lineIntervalMs: 2,
    linesBeforeCut: 20,
    recoveryTimeoutMs: 20_000,
  },
  starts: { counts: [10], runs: 1, batchTimeoutMs: 15_000 },
  pixels: {
    bytes: 256 * 1024,
    runs: 1,
    warmups: 0,
    floodMs: 300,
    ctrlCRuns: 1,
    keystrokeSamples: 5,
    stepTimeoutMs: 20_000,
  },
  typing: { lines: 1, keysPerLine: 4, stepTimeoutMs: 20_000 },
  footprint: { environments: 2, panes: 4, linesPerPane: 200, timeoutMs: 30_000 },
  fleet: {
    wsServers: 1,
    wsEnvironments: 2,
    sshHosts: 1,
    sshEnvironments: 1,
    lineIntervalMs: 100,
    cutMs: 1_000,
    setupTimeoutMs: 60_000,
    resumeTimeoutMs: 30_000,
    settleMs: 500,
  },
  transfer: {
    bytes: 1 * MiB,
    delayedBytes: 1 * MiB,
    rttsMs: [40],
    smallFiles: 10,
    smallFileBytes: 4096,
    runs: 1,
    runTimeoutMs: 60_000,
  },
  container: {
    warmRuns: 1,
    outputBytes: 256 * 1024,
    outputRuns: 1,
    runTimeoutMs: 20_000,
    connectTimeoutMs: 120_000,
  },
  forward: { bytes: 1 * MiB, runs: 1, requests: 5, runTimeoutMs: 20_000, connectTimeoutMs: 30_000 },
  ssh: {
    coldRuns: 1,
    warmRuns: 1,
    echoSamples: 10,
    echoWarmupSamples: 2,
    sampleTimeoutMs: 2_000,
    outputBytes: 256 * 1024,
    outputRuns: 1,
    runTimeoutMs: 20_000,
    connectTimeoutMs: 30_000,
  },
};
