// The parts of an e2e test of the Local environment: a scratch folder, the web app and Chromium,
// made before each test of the calling describe block and removed after it.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { reportIfFailed } from './screens';
import { launchBrowser, type LaunchedBrowser } from '../support/browser';
import { startWebApp, type WebApp } from './web-app';

export interface LocalRig {
  readonly app: WebApp;
  readonly browser: LaunchedBrowser;
  /** A fresh temporary folder the test may fill; removed after the test. */
  readonly scratch: string;
}

export function localRig(scratchPrefix: string): LocalRig {
  let app: WebApp | undefined;
  let browser: LaunchedBrowser | undefined;
  let scratch = '';
  beforeEach(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), scratchPrefix));
    app = await startWebApp();
    browser = await launchBrowser({ disableWebgl: true });
  });
  afterEach(async (ctx) => {
    await reportIfFailed(ctx);
    await browser?.close();
    await app?.stop();
    rmSync(scratch, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });
  return {
    get app() {
      return app!;
    },
    get browser() {
      return browser!;
    },
    get scratch() {
      return scratch;
    },
  };
}
