import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { viteReaderWorker } from './scripts/reader-worker-plugin.mjs';
import TetherSequencer from './scripts/test-sequencer.mjs';
import { viteShellScripts } from './scripts/shell-scripts-plugin.mjs';

const root = path.dirname(fileURLToPath(import.meta.url));

// One runner for every suite. Node-side suites (unit, integration, conformance, chaos, bench
// harness) run in Node; renderer component tests in jsdom; e2e drives Debian Chromium via Playwright.
export default defineConfig({
  test: {
    // Most node suites wait on real time (outages, backoff, sshd, ptys, containers), not on the
    // CPU, and the default of cores − 1 is a single worker on a 2-core machine, which runs every
    // file in series. Three of the four workers sit out multi-minute outages for the first minutes.
    maxWorkers: 4,
    sequence: { sequencer: TetherSequencer },
    projects: [
      {
        // Tests of the exec-server's source run its reader thread built the way dist/ carries it.
        plugins: [viteReaderWorker(root), viteShellScripts()],
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/{unit,integration,conformance,chaos,bench}/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['renderer/**/*.test.{ts,tsx}'],
          // jsdom renders whole app trees with xterm in them: with files in parallel on two cores a
          // slow test takes tens of seconds. A bound, not a timing.
          testTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One browser file at a time, alongside the other suites rather than after them.
          setupFiles: ['test/support/e2e-serial.ts'],
        },
      },
    ],
  },
});
