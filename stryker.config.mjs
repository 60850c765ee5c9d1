// Mutation testing of the pure, deterministic core modules (`npm run mutation`, not part of
// `npm test` or CI): Stryker mutates them in a sandbox and runs vitest.mutation.config.ts against
// each mutant; docs/testing.md records the score and the accepted survivors.

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  coverageAnalysis: 'perTest',
  mutate: [
    // Ordering and retention of process events (client, server, app).
    'shared/bounded-seq-log.ts',
    'electron/client/processes/reorder-buffer.ts',
    'electron/client/processes/event-log.ts',
    'electron/server/processes/output-log.ts',
    'electron/server/processes/write-dedup.ts',
    'electron/app/processes/process-log.ts',
    // Reconnect pacing and link health.
    'electron/client/link/backoff.ts',
    'electron/client/link/health-monitor.ts',
    // Decoders of what arrives on the wire.
    'electron/client/link/message-decoder.ts',
    'electron/server/rpc/envelope.ts',
    'electron/server/rpc/base64.ts',
    'electron/server/listeners/jwt.ts',
    'renderer/terminals/xterm/base64.ts',
    // Flow windows: upload backpressure and the terminal's watermarks and acknowledgements.
    'electron/app/files/upload-buffer.ts',
    'renderer/terminals/xterm/output-flow.ts',
  ],
  // Only what the unit tests need is copied into the sandbox.
  ignorePatterns: [
    'dist',
    'test-results',
    'coverage',
    '.cache',
    'docs',
    'resources',
    'test/e2e',
    'test/bench',
  ],
  // A shared two-core machine: at most two vitest workers, run under `nice`.
  concurrency: 2,
  timeoutMS: 10_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, reportTests: false, logTests: false },
  tempDirName: 'reports/mutation/.stryker-tmp',
  cleanTempDir: 'always',
};
