import { defineConfig } from 'vitest/config';

// The vitest run Stryker uses for `npm run mutation` (stryker.config.mjs): only the fast,
// in-process unit tests of the pure core modules it mutates, so each mutant runs in well under a
// second. Nothing here spawns a server; the normal suites stay in vitest.config.ts.
export default defineConfig({
  test: {
    environment: 'node',
    include: [
      'test/unit/client/processes/{reorder-buffer,event-log,process-session}.test.ts',
      'test/unit/client/link/{health-monitor,health-and-backoff,message-decoder}.test.ts',
      'test/unit/server/processes/{write-dedup,output-log}.test.ts',
      'test/unit/server/rpc/{envelope,base64}.test.ts',
      'test/unit/server/listeners/jwt.test.ts',
      'test/unit/server/fs/uri-errors.test.ts',
      'test/unit/app/processes/process-log.test.ts',
      'test/unit/app/files/upload-buffer.test.ts',
      'renderer/terminals/xterm/{output-flow,base64}.test.ts',
      'test/unit/shared/bounded-seq-log.test.ts',
    ],
    testTimeout: 10_000,
  },
});
