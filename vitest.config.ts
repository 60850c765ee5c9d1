import { defineConfig } from 'vitest/config';

// One runner for every suite. Node-side suites (unit, integration, conformance, chaos, bench
// harness) run in Node; renderer component tests in jsdom; e2e drives Debian Chromium via Playwright.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/{unit,integration,conformance,chaos,bench}/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
