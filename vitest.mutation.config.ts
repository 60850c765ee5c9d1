import { defineConfig } from 'vitest/config';

// The vitest run Stryker uses for `npm run mutation` (stryker.config.mjs): only the fast,
// in-process unit tests of the pure core modules it mutates, so each mutant runs in well under a
// second. Nothing here spawns a server; the normal suites stay in vitest.config.ts.
export default defineConfig({
  test: {
    environment: 'node',
    include: [
      'test/unit/client/{reorder-buffer,event-log,process-session,health-monitor,health-and-backoff,message-decoder}.test.ts',
      'test/unit/server/{write-dedup,output-log,envelope,jwt,uri-errors,base64}.test.ts',
      'test/unit/app/{process-log,upload-buffer}.test.ts',
      'test/unit/shared/bounded-seq-log.test.ts',
      'renderer/terminal/{output-flow,base64}.test.ts',
    ],
    testTimeout: 10_000,
  },
});
